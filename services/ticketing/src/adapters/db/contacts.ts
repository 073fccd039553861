import type { PoolClient } from '@crm/db';
import type { ContactProfile } from '../../domain/events';

/** The incoming user object is at least as recent as the stored one. */
const NEWER = `(EXCLUDED.profile IS NOT NULL AND (contacts.profile_observed_at IS NULL OR EXCLUDED.profile_observed_at >= contacts.profile_observed_at))`;

/**
 * Creates or refreshes the contact of a platform user for an account and returns its id.
 * The profile is replaced only by one observed at the same time or later, so redelivered or
 * out-of-order events never bring back an old name; an event without a user object changes nothing.
 */
export async function upsertContact(client: PoolClient, accountId: string, profile: ContactProfile, observedAt: Date): Promise<string> {
  const { rows } = await client.query<{ id: string }>(
    `INSERT INTO contacts (account_id, platform_user_id, screen_name, name, avatar_url, profile, profile_observed_at)
     VALUES ($1, $2, $3, $4, $5, $6::jsonb, CASE WHEN $6::jsonb IS NULL THEN NULL ELSE $7::timestamptz END)
     ON CONFLICT (account_id, platform_user_id) DO UPDATE SET
       screen_name = CASE WHEN ${NEWER} THEN COALESCE(EXCLUDED.screen_name, contacts.screen_name) ELSE contacts.screen_name END,
       name = CASE WHEN ${NEWER} THEN COALESCE(EXCLUDED.name, contacts.name) ELSE contacts.name END,
       avatar_url = CASE WHEN ${NEWER} THEN COALESCE(EXCLUDED.avatar_url, contacts.avatar_url) ELSE contacts.avatar_url END,
       profile = CASE WHEN ${NEWER} THEN EXCLUDED.profile ELSE contacts.profile END,
       updated_at = CASE WHEN ${NEWER} THEN now() ELSE contacts.updated_at END,
       profile_observed_at = CASE WHEN ${NEWER} THEN EXCLUDED.profile_observed_at ELSE contacts.profile_observed_at END
     RETURNING id`,
    [accountId, profile.platformUserId, profile.screenName, profile.name, profile.avatarUrl, profile.raw, observedAt],
  );
  return rows[0]!.id;
}
