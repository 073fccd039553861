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
   * Creates or refreshes the contact of a platform user for an account and returns its id.
   * Name, screen name, avatar, followers and verified come from the newest user object seen
   * (an older event never brings back an old name); a user known by id only fills gaps and
   * changes nothing else.
   */
  async upsert(accountId: string, user: SocialUser, observedAt: Date): Promise<string> {
    const { rows } = await this.db.query<{ id: string }>(
      `INSERT INTO contacts (account_id, platform_user_id, screen_name, name, avatar_url, followers_count, verified, profile, profile_observed_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, CASE WHEN $8::jsonb IS NULL THEN NULL ELSE $9::timestamptz END)
       ON CONFLICT (account_id, platform_user_id) DO UPDATE SET
         ${refreshed('screen_name')},
         ${refreshed('name')},
         ${refreshed('avatar_url')},
         ${refreshed('followers_count')},
         ${refreshed('verified')},
         profile = CASE WHEN ${NEWER} THEN EXCLUDED.profile ELSE contacts.profile END,
         updated_at = CASE WHEN ${NEWER} THEN now() ELSE contacts.updated_at END,
         profile_observed_at = CASE WHEN ${NEWER} THEN EXCLUDED.profile_observed_at ELSE contacts.profile_observed_at END
       RETURNING id`,
      [accountId, user.id, user.screenName, user.name, user.avatarUrl, user.followersCount, user.verified, user.raw, observedAt],
    );
    return rows[0]!.id;
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
