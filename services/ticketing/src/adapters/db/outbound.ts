import type { MediaAttachment } from '../../domain/social-events';
import type { Queryable } from './queryable';
import { lockKeyOfReply } from '../../domain/events';
import { Locks } from './locks';

/**
 * Activities this system sends (an agent's reply from a ticket). One is recorded as pending
 * before the send, without a platform id; when the platform accepts it, it gets the platform's
 * id. The platform then delivers the account's own post or DM back by webhook (the echo), with
 * that same id: `UNIQUE (account_id, platform_event_id)` makes the echo a duplicate, and if the
 * echo won the race, `markOutboundSent` folds it into the pending activity. Either way the
 * reply appears once.
 */

export interface PendingOutbound {
  accountId: string;
  ticketId: string;
  kind: 'dm_sent' | 'reply_by_account';
  text: string;
  contactId: string | null;
  /** DMs: the conversation, so the echo threads to it. */
  conversationKey: string | null;
  /** Public replies: the post replied to. */
  parentPostId: string | null;
  /** Who sent it: the principal's id. */
  actor: string;
  /** The image a DM carries (its media id on the platform). */
  attachments: MediaAttachment[];
}

/** Why a send did not succeed: auth's error code and message, and the platform's code when it answered. */
export interface SendFailure {
  code: string;
  message: string;
  platformCode: number | null;
}

/** Replies this system sends, from pending to sent, failed or unknown. */
export class OutboundRepository {
  constructor(private readonly db: Queryable) {}

  async recordPending(activity: PendingOutbound, now: Date): Promise<string> {
    const { rows } = await this.db.query<{ id: string }>(
      `INSERT INTO activities (account_id, ticket_id, kind, direction, text, platform_event_id, occurred_at, contact_id,
                               conversation_key, parent_post_id, send_status, actor, attachments)
       VALUES ($1, $2, $3, 'outbound', $4, NULL, $5, $6, $7, $8, 'pending', $9, $10)
       RETURNING id`,
      [activity.accountId, activity.ticketId, activity.kind, activity.text, now, activity.contactId, activity.conversationKey, activity.parentPostId, activity.actor, JSON.stringify(activity.attachments)],
    );
    return rows[0]!.id;
  }

  /**
   * The platform accepted a pending activity and gave it `platformEventId`. If its echo was
   * recorded first, the echo's row is removed and its details (time, raw event) kept on ours,
   * under the same lock the echo takes, so the two can never both stay. Returns false when the
   * activity is not pending (already settled).
   */
  async markSent(activityId: string, platformEventId: string): Promise<boolean> {
    const { rows } = await this.db.query<{ account_id: string; conversation_key: string | null }>(
      `SELECT account_id, conversation_key FROM activities WHERE id = $1 AND send_status IN ('pending', 'unknown')`,
      [activityId],
    );
    const pending = rows[0];
    if (!pending) return false;
    await new Locks(this.db).keys([lockKeyOfReply(pending.account_id, pending.conversation_key)]);
    const echo = await this.db.query<{ occurred_at: Date; raw: Record<string, unknown> | null; source_envelope_id: string | null }>(
      `DELETE FROM activities WHERE account_id = $1 AND platform_event_id = $2 AND id <> $3
       RETURNING occurred_at, raw, source_envelope_id`,
      [pending.account_id, platformEventId, activityId],
    );
    const seen = echo.rows[0];
    await this.db.query(
      `UPDATE activities SET platform_event_id = $2, send_status = 'sent', send_error = NULL, send_error_code = NULL, send_error_platform_code = NULL,
         occurred_at = COALESCE($3, occurred_at), raw = COALESCE($4::jsonb, raw), source_envelope_id = COALESCE($5, source_envelope_id)
       WHERE id = $1`,
      [activityId, platformEventId, seen?.occurred_at ?? null, seen?.raw ?? null, seen?.source_envelope_id ?? null],
    );
    // The ticket's first response (SLA) is the earliest reply of ours the platform accepted.
    await this.db.query(
      `UPDATE tickets t SET first_response_at = a.occurred_at
         FROM activities a
        WHERE a.id = $1 AND t.id = a.ticket_id AND (t.first_response_at IS NULL OR t.first_response_at > a.occurred_at)`,
      [activityId],
    );
    return true;
  }

  /**
   * The platform refused the send (or its outcome is unknown): the reason stays on the activity.
   * Returns false when the activity is not pending or unknown (already settled).
   */
  async markFailed(activityId: string, outcome: 'failed' | 'unknown', failure: SendFailure): Promise<boolean> {
    const { rowCount } = await this.db.query(
      `UPDATE activities SET send_status = $2, send_error = $3, send_error_code = $4, send_error_platform_code = $5
        WHERE id = $1 AND send_status IN ('pending', 'unknown')`,
      [activityId, outcome, failure.message, failure.code, failure.platformCode],
    );
    return (rowCount ?? 0) > 0;
  }
}
