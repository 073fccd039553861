import { CRM_EVENT_VERSION, CrmEvents, Exchanges, type CrmEventPayload, type CrmEventType, type CrmTicketSummary } from '@crm/contracts';
import { makeEnvelope } from '@crm/messaging';
import type { Queryable } from './queryable';
import type { Outbox } from './store';

/** The PostgreSQL channel every committed ticket change is announced on (live inbox, relay and webhook kicks). */
export const CHANGES_CHANNEL = 'ticketing_changes';

/** What a notification on CHANGES_CHANNEL carries (kept under PostgreSQL's 8000-byte limit). */
export interface ChangeNotice {
  id: string;
  type: string;
  ticketId: string | null;
  accountId: string;
  actor: string;
  occurredAt: string;
  /** The change queued deliveries to CRM webhook endpoints (the dispatcher has work). */
  webhooks?: boolean;
  /** Present when it fits: the ticket as the event describes it. */
  ticket?: CrmTicketSummary;
  /** Typing indicators: when the indicator stops counting. */
  expiresAt?: string;
  data?: Record<string, unknown>;
}

const NOTIFY_LIMIT = 7_500;

export type CrmEventParts = Pick<CrmEventPayload, 'changes' | 'activity' | 'merge' | 'sla'>;

export type CrmActivityPart = NonNullable<CrmEventPayload['activity']>;

/** One CRM event to emit: `messageId` makes it recognisable when published again (e.g. one per ticket, clock and stage). */
export interface CrmEventSpec {
  type: CrmEventType;
  ticketId: string;
  actor: string;
  parts?: CrmEventParts;
  messageId?: string;
}

export interface ConversationStateChange {
  accountId: string;
  counterpartId: string;
  kind: 'typing' | 'read';
  party: 'account' | 'contact';
  at: Date;
  sourceId: string;
  typingTtlMs: number;
  lastReadEventId?: string;
}

/**
 * What the CRM and the live inbox hear, written in the transaction of the change: the CRM
 * event to the outbox (published on `crm.events` after the commit), one delivery per matching
 * webhook endpoint, and a NOTIFY. Nothing goes out unless the change commits.
 */
export class CrmEventRepository {
  constructor(
    private readonly db: Queryable,
    private readonly outbox: Pick<Outbox, 'enqueueMany'>,
  ) {}

  /** `messageId` makes the event recognisable when published again (e.g. one per ticket, clock and stage). */
  async emit(type: CrmEventType, ticketId: string, actor: string, parts: CrmEventParts = {}, messageId?: string): Promise<string> {
    const [id] = await this.emitAll([{ type, ticketId, actor, parts, messageId }]);
    return id!;
  }

  /**
   * Several events in the same few statements whatever their number (each ticket read once; the
   * outbox rows, webhook deliveries and notifications written in one statement each), in order.
   */
  async emitAll(events: CrmEventSpec[]): Promise<string[]> {
    if (events.length === 0) return [];
    const tickets = await this.summaries([...new Set(events.map((event) => event.ticketId))]);
    const made = events.map(({ type, ticketId, actor, parts = {}, messageId }) => {
      const ticket = tickets.get(ticketId)!;
      const payload: CrmEventPayload = { type, version: CRM_EVENT_VERSION, actor, ticketId, accountId: ticket.accountId, ticket, ...parts };
      const envelope = makeEnvelope(CrmEvents[type], 'ticketing', payload, messageId ? { id: messageId } : {});
      const notice: ChangeNotice = { id: envelope.id, type, ticketId, accountId: ticket.accountId, actor, occurredAt: envelope.occurredAt, ticket, data: parts as Record<string, unknown> };
      return { type, envelope, notice };
    });
    await this.outbox.enqueueMany(made.map(({ type, envelope }) => ({ exchange: Exchanges.crmEvents, routingKey: type, envelope })));
    const { rowCount } = await this.db.query(
      `INSERT INTO webhook_deliveries (endpoint_id, event_id, event_type, body)
       SELECT w.id, e.id, e.type, e.body FROM unnest($1::text[], $2::text[], $3::jsonb[]) AS e(id, type, body)
         JOIN webhook_endpoints w ON w.event_types = '{}' OR e.type = ANY (w.event_types)`,
      [made.map((m) => m.envelope.id), made.map((m) => m.type), made.map((m) => JSON.stringify(m.envelope))],
    );
    const webhooks = (rowCount ?? 0) > 0;
    await this.notifyAll(made.map((m) => (webhooks ? { ...m.notice, webhooks } : m.notice)));
    return made.map((m) => m.envelope.id);
  }

  /** Announces a change to this process and the others, delivered when (and only if) the transaction commits. */
  notify(notice: ChangeNotice): Promise<void> {
    return this.notifyAll([notice]);
  }

  private async notifyAll(notices: ChangeNotice[]): Promise<void> {
    const texts = notices.map((notice) => {
      const text = JSON.stringify(notice);
      return text.length > NOTIFY_LIMIT ? JSON.stringify({ ...notice, ticket: undefined, data: undefined }) : text;
    });
    await this.db.query('SELECT count(pg_notify($1, n)) FROM unnest($2::text[]) AS n', [CHANGES_CHANNEL, texts]);
  }

  /** A timeline entry as a CRM event carries it. */
  async activityPart(activityId: string): Promise<CrmActivityPart> {
    return (await this.activityParts([activityId])).get(activityId)!;
  }

  /** Timeline entries as CRM events carry them, by activity id, in one query; an edited one with its edits in `data`. */
  async activityParts(activityIds: string[]): Promise<Map<string, CrmActivityPart>> {
    const { rows } = await this.db.query<{ id: string; kind: string; direction: string; text: string | null; occurred_at: Date; edited: Record<string, unknown> | null }>(
      `SELECT id, kind, direction, text, occurred_at,
              CASE WHEN edited_at IS NULL THEN NULL ELSE jsonb_build_object('editedAt', edited_at, 'edits', edits) END AS edited
         FROM activities WHERE id = ANY ($1::uuid[])`,
      [activityIds],
    );
    return new Map(
      rows.map((row) => [
        row.id,
        { id: row.id, kind: row.kind, direction: row.direction, text: row.text, occurredAt: row.occurred_at.toISOString(), ...(row.edited ? { data: row.edited } : {}) },
      ]),
    );
  }

  /** A DM conversation's state changed (typing, read receipt): announced for the live inbox only (state, not a CRM event). */
  async conversationState(state: ConversationStateChange): Promise<void> {
    const { rows } = await this.db.query<{ id: string }>(
      `SELECT id FROM tickets WHERE account_id = $1 AND conversation_key = $2 AND status IN ('open', 'pending') LIMIT 1`,
      [state.accountId, `dm:${state.accountId}:${state.counterpartId}`],
    );
    await this.notify({
      id: `${state.kind}:${state.sourceId}`,
      type: `conversation.${state.kind}`,
      ticketId: rows[0]?.id ?? null,
      accountId: state.accountId,
      actor: 'system',
      occurredAt: state.at.toISOString(),
      ...(state.kind === 'typing' ? { expiresAt: new Date(state.at.getTime() + state.typingTtlMs).toISOString() } : {}),
      data: { counterpartId: state.counterpartId, party: state.party, ...(state.lastReadEventId ? { lastReadEventId: state.lastReadEventId } : {}) },
    });
  }

  private async summaries(ticketIds: string[]): Promise<Map<string, CrmTicketSummary>> {
    const { rows } = await this.db.query<CrmTicketSummary>(
      `SELECT id, account_id AS "accountId", status, channel, queue, folder, assignee, team, priority, tags, merged_into AS "mergedInto",
              subject, contact_id AS "contactId",
              to_char(last_activity_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "lastActivityAt",
              to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "updatedAt"
         FROM tickets WHERE id = ANY ($1::uuid[])`,
      [ticketIds],
    );
    return new Map(rows.map((row) => [row.id, row]));
  }
}
