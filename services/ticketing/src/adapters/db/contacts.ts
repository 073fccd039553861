import type { SocialUser } from '../../domain/social-events';
import type { Queryable } from './queryable';

/**
 * The incoming user object is newer than the stored one: observed later, or at the same time
 * and larger by a digest of its content, so every replica settles on the same profile
 * whatever the order it sees them in.
 */
const NEWER = `(EXCLUDED.profile IS NOT NULL AND (contacts.profile_observed_at IS NULL
  OR EXCLUDED.profile_observed_at > contacts.profile_observed_at
  OR (EXCLUDED.profile_observed_at = contacts.profile_observed_at AND md5(EXCLUDED.profile::text) > md5(contacts.profile::text))))`;

const refreshed = (column: string) =>
  `${column} = CASE WHEN ${NEWER} THEN COALESCE(EXCLUDED.${column}, contacts.${column}) ELSE COALESCE(contacts.${column}, EXCLUDED.${column}) END`;

/** Contacts: the platform users an account deals with. */
export class ContactRepository {
  constructor(private readonly db: Queryable) {}

  /**
   * Creates or refreshes the contacts of platform users for accounts, in one statement, and
   * returns their ids in the order given. Name, screen name, avatar, followers and verified come
   * from the newest user object seen (an older event never brings back an old name); a user
   * known by id only fills gaps and changes nothing else. Each account and user at most once
   * per call (one statement may not change a row twice).
   */
  async upsertMany(sightings: { accountId: string; user: SocialUser; observedAt: Date }[]): Promise<string[]> {
    if (sightings.length === 0) return [];
    const column = <T>(pick: (sighting: { accountId: string; user: SocialUser; observedAt: Date }) => T) => sightings.map(pick);
    const { rows } = await this.db.query<{ id: string; n: string }>(
      `WITH given AS (
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::int[], $7::boolean[], $8::jsonb[], $9::timestamptz[])
           WITH ORDINALITY AS g(account_id, platform_user_id, screen_name, name, avatar_url, followers_count, verified, profile, observed_at, n)),
       upserted AS (
         INSERT INTO contacts (account_id, platform_user_id, screen_name, name, avatar_url, followers_count, verified, profile, profile_observed_at)
         SELECT account_id, platform_user_id, screen_name, name, avatar_url, followers_count, verified, profile, CASE WHEN profile IS NULL THEN NULL ELSE observed_at END
           FROM given ORDER BY n
         ON CONFLICT (account_id, platform_user_id) DO UPDATE SET
           ${refreshed('screen_name')},
           ${refreshed('name')},
           ${refreshed('avatar_url')},
           ${refreshed('followers_count')},
           ${refreshed('verified')},
           profile = CASE WHEN ${NEWER} THEN EXCLUDED.profile ELSE contacts.profile END,
           updated_at = CASE WHEN ${NEWER} THEN now() ELSE contacts.updated_at END,
           profile_observed_at = CASE WHEN ${NEWER} THEN EXCLUDED.profile_observed_at ELSE contacts.profile_observed_at END
         RETURNING id, account_id, platform_user_id)
       SELECT u.id, g.n FROM upserted u JOIN given g ON g.account_id = u.account_id AND g.platform_user_id = u.platform_user_id ORDER BY g.n`,
      [
        column((s) => s.accountId),
        column((s) => s.user.id),
        column((s) => s.user.screenName),
        column((s) => s.user.name),
        column((s) => s.user.avatarUrl),
        column((s) => s.user.followersCount),
        column((s) => s.user.verified),
        column((s) => (s.user.raw === null ? null : JSON.stringify(s.user.raw))),
        column((s) => s.observedAt),
      ],
    );
    return rows.map((row) => row.id);
  }

  /**
   * Records that the account blocked/unblocked or muted/unmuted the contact. The newest event
   * wins (ties broken by event id), so redelivered or reordered events settle the same way.
   */
  async setFlag(
    contactId: string,
    flag: 'blocked' | 'muted',
    change: { value: boolean; at: Date; eventId: string },
  ): Promise<void> {
    await this.db.query(
      `UPDATE contacts SET ${flag} = $2, ${flag}_changed_at = $3, ${flag}_change_id = $4, updated_at = now()
        WHERE id = $1 AND (${flag}_changed_at IS NULL OR (${flag}_changed_at, ${flag}_change_id) < ($3::timestamptz, $4::text))`,
      [contactId, change.value, change.at, change.eventId],
    );
  }
}
