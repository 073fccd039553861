import type { MediaAttachment } from '../../domain/social-events';
import type { Queryable } from './queryable';

export type Direction = 'inbound' | 'outbound' | 'event';

export interface NewActivity {
  accountId: string;
  ticketId: string | null;
  kind: string;
  direction: Direction;
  text: string | null;
  platformEventId: string;
  occurredAt: Date;
  /** Who wrote it: the customer for inbound activity, null for the account's own. */
  authorContactId: string | null;
  /** The customer whose timeline it belongs on. */
  contactId: string | null;
  conversationKey: string | null;
  parentPostId: string | null;
  relatedPostId: string | null;
  attachments: MediaAttachment[];
  sourceEnvelopeId: string;
  /** When webhook-ingest received the delivery (orders the texts of an edited activity). */
  receivedAt: Date;
  raw: Record<string, unknown>;
}

/** A text an activity had before (or, delivered late, an older one it never showed). */
export interface ActivityEdit {
  text: string | null;
  receivedAt: string | null;
  /** When the text that replaced it was received; null for an older text delivered late. */
  replacedAt: string | null;
  envelopeId: string;
}

/** An activity a delivery gave a text it never had. */
export interface EditedActivity {
  id: string;
  ticketId: string | null;
  /** The new text is the activity's now (false: an older text, delivered late, went to its edits). */
  shown: boolean;
}

/** Moved activities: their platform ids and whether each was inbound. */
export interface MovedActivity {
  platform_event_id: string | null;
  direction: Direction;
}

/** The activities of tickets and contacts timelines, as deliveries record and move them. */
export class ActivityRepository {
  constructor(private readonly db: Queryable) {}

  /**
   * Inserts an activity; returns its id, or null when the platform event is already recorded
   * (redelivery, a duplicate webhook, or the echo of a send this system made). A post whose
   * delete was seen first is stored marked deleted.
   */
  async record(activity: NewActivity): Promise<string | null> {
    const { rows } = await this.db.query<{ id: string }>(
      `INSERT INTO activities (account_id, ticket_id, kind, direction, text, platform_event_id, occurred_at, author_contact_id,
                               contact_id, conversation_key, parent_post_id, related_post_id, attachments, source_envelope_id, raw,
                               text_received_at, deleted, deleted_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13::jsonb, $14, $15::jsonb, $16,
               EXISTS (SELECT 1 FROM deleted_posts d WHERE d.account_id = $1 AND d.post_id = $6),
               (SELECT d.deleted_at FROM deleted_posts d WHERE d.account_id = $1 AND d.post_id = $6))
       ON CONFLICT (account_id, platform_event_id) DO NOTHING
       RETURNING id`,
      [
        activity.accountId,
        activity.ticketId,
        activity.kind,
        activity.direction,
        activity.text,
        activity.platformEventId,
        activity.occurredAt,
        activity.authorContactId,
        activity.contactId,
        activity.conversationKey,
        activity.parentPostId,
        activity.relatedPostId,
        JSON.stringify(activity.attachments),
        activity.sourceEnvelopeId,
        activity.raw,
        activity.receivedAt,
      ],
    );
    return rows[0]?.id ?? null;
  }

  /**
   * record() of several activities in one statement: each one's id, or null when its platform
   * event is recorded already (before, or by an earlier one of the same call).
   */
  async recordMany(activities: NewActivity[]): Promise<(string | null)[]> {
    if (activities.length === 0) return [];
    // One JSON array rather than a text array per column: raw events and texts go without the per-character escaping arrays need.
    const given = activities.map((a) => ({
      account_id: a.accountId,
      ticket_id: a.ticketId,
      kind: a.kind,
      direction: a.direction,
      text: a.text,
      platform_event_id: a.platformEventId,
      occurred_at: a.occurredAt,
      author_contact_id: a.authorContactId,
      contact_id: a.contactId,
      conversation_key: a.conversationKey,
      parent_post_id: a.parentPostId,
      related_post_id: a.relatedPostId,
      attachments: a.attachments,
      source_envelope_id: a.sourceEnvelopeId,
      raw: a.raw,
      text_received_at: a.receivedAt,
    }));
    const { rows } = await this.db.query<{ id: string; n: string }>(
      `WITH given AS (
         SELECT * FROM ROWS FROM (json_to_recordset($1::json) AS (account_id text, ticket_id uuid, kind text, direction text, text text, platform_event_id text,
                                  occurred_at timestamptz, author_contact_id uuid, contact_id uuid, conversation_key text, parent_post_id text,
                                  related_post_id text, attachments jsonb, source_envelope_id text, raw jsonb, text_received_at timestamptz))
           WITH ORDINALITY AS g(account_id, ticket_id, kind, direction, text, platform_event_id, occurred_at, author_contact_id, contact_id,
                                conversation_key, parent_post_id, related_post_id, attachments, source_envelope_id, raw, text_received_at, n)),
       inserted AS (
         INSERT INTO activities (account_id, ticket_id, kind, direction, text, platform_event_id, occurred_at, author_contact_id,
                                 contact_id, conversation_key, parent_post_id, related_post_id, attachments, source_envelope_id, raw,
                                 text_received_at, deleted, deleted_at)
         SELECT g.account_id, g.ticket_id, g.kind, g.direction, g.text, g.platform_event_id, g.occurred_at, g.author_contact_id,
                g.contact_id, g.conversation_key, g.parent_post_id, g.related_post_id, g.attachments, g.source_envelope_id, g.raw,
                g.text_received_at, d.post_id IS NOT NULL, d.deleted_at
           FROM given g LEFT JOIN deleted_posts d ON d.account_id = g.account_id AND d.post_id = g.platform_event_id
          ORDER BY g.n
         ON CONFLICT (account_id, platform_event_id) DO NOTHING
         RETURNING id, account_id, platform_event_id)
       SELECT i.id, min(g.n) AS n FROM inserted i JOIN given g ON g.account_id = i.account_id AND g.platform_event_id = i.platform_event_id GROUP BY i.id`,
      [JSON.stringify(given)],
    );
    const ids: (string | null)[] = activities.map(() => null);
    for (const row of rows) ids[Number(row.n) - 1] = row.id;
    return ids;
  }

  /**
   * The platform event is recorded already: a text it never had is an edit. The newest text
   * (by when it was received) is the activity's, the others are kept in `edits`; a text seen
   * before changes nothing (null).
   */
  async reviseText(activity: NewActivity): Promise<EditedActivity | null> {
    const { rows } = await this.db.query<{ id: string; ticket_id: string | null; text: string | null; text_received_at: Date | null; edits: ActivityEdit[] }>(
      'SELECT id, ticket_id, text, text_received_at, edits FROM activities WHERE account_id = $1 AND platform_event_id = $2 FOR UPDATE',
      [activity.accountId, activity.platformEventId],
    );
    const row = rows[0];
    if (!row || row.text === activity.text || row.edits.some((edit) => edit.text === activity.text)) return null;
    const newer = row.text_received_at === null || activity.receivedAt > row.text_received_at;
    const received = activity.receivedAt.toISOString();
    const edit: ActivityEdit = newer
      ? { text: row.text, receivedAt: row.text_received_at?.toISOString() ?? null, replacedAt: received, envelopeId: activity.sourceEnvelopeId }
      : { text: activity.text, receivedAt: received, replacedAt: null, envelopeId: activity.sourceEnvelopeId };
    const edits = [...row.edits, edit].sort((a, b) => (a.receivedAt ?? '').localeCompare(b.receivedAt ?? ''));
    await this.db.query(
      `UPDATE activities SET edits = $2::jsonb,
              text = CASE WHEN $3 THEN $4 ELSE text END,
              text_received_at = CASE WHEN $3 THEN $5 ELSE text_received_at END,
              edited_at = CASE WHEN $3 THEN $5 ELSE edited_at END
        WHERE id = $1`,
      [row.id, JSON.stringify(edits), newer, activity.text, activity.receivedAt],
    );
    return { id: row.id, ticketId: row.ticket_id, shown: newer };
  }

  async attach(activityId: string, ticketId: string): Promise<void> {
    await this.db.query('UPDATE activities SET ticket_id = $2 WHERE id = $1', [activityId, ticketId]);
  }

  /** Puts the DMs of a conversation that were recorded before it had a ticket on its (first) ticket. */
  async adoptConversation(accountId: string, conversationKey: string, ticketId: string): Promise<number> {
    const { rowCount } = await this.db.query(
      'UPDATE activities SET ticket_id = $3 WHERE account_id = $1 AND conversation_key = $2 AND ticket_id IS NULL',
      [accountId, conversationKey, ticketId],
    );
    return rowCount ?? 0;
  }

  /** Moves every activity of one ticket to another. */
  async moveAll(fromTicketId: string, toTicketId: string): Promise<MovedActivity[]> {
    const { rows } = await this.db.query<MovedActivity>(
      'UPDATE activities SET ticket_id = $2 WHERE ticket_id = $1 RETURNING platform_event_id, direction',
      [fromTicketId, toTicketId],
    );
    return rows;
  }

  /** Remembers a deleted post and marks its activity deleted; the record stays. Returns whether an activity was marked. */
  async markPostDeleted(accountId: string, postId: string, deletedAt: Date): Promise<boolean> {
    await this.db.query(
      'INSERT INTO deleted_posts (account_id, post_id, deleted_at) VALUES ($1, $2, $3) ON CONFLICT (account_id, post_id) DO NOTHING',
      [accountId, postId, deletedAt],
    );
    const { rowCount } = await this.db.query(
      'UPDATE activities SET deleted = true, deleted_at = $3 WHERE account_id = $1 AND platform_event_id = $2 AND NOT deleted',
      [accountId, postId, deletedAt],
    );
    return (rowCount ?? 0) > 0;
  }

  /** Puts ticketless activities that thread under `parentPostId` on the ticket; inbound ones only when asked. */
  async adoptReplies(accountId: string, parentPostId: string, ticketId: string, { withInbound }: { withInbound: boolean }): Promise<MovedActivity[]> {
    const { rows } = await this.db.query<MovedActivity>(
      `UPDATE activities SET ticket_id = $3
        WHERE account_id = $1 AND parent_post_id = $2 AND ticket_id IS NULL AND ($4 OR direction <> 'inbound')
        RETURNING platform_event_id, direction`,
      [accountId, parentPostId, ticketId, withInbound],
    );
    return rows;
  }
}
