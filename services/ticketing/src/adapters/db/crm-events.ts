import { CRM_EVENT_VERSION, CrmAccountEvents, CrmEvents, Exchanges, type CrmAccountEventPayload, type CrmAccountEventType, type CrmEventPayload, type CrmEventType, type CrmTicketSummary, type Envelope } from '@crm/contracts';
import { insertOutboxFrom, makeEnvelope, outboxTraceContext } from '@crm/messaging';
import type { Queryable } from './queryable';

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

/** Bytes a notice may take: NOTIFY carries at most 8,000, and `webhooks: true` may be added to it. */
const NOTIFY_LIMIT = 7_500;

/** A notice as NOTIFY carries it: without the ticket and data when it would not fit. */
function noticeText(notice: ChangeNotice): string {
  const text = JSON.stringify(notice);
  return Buffer.byteLength(text) > NOTIFY_LIMIT ? JSON.stringify({ ...notice, ticket: undefined, data: undefined }) : text;
}

export type CrmEventParts = Pick<CrmEventPayload, 'changes' | 'activity' | 'merge' | 'sla' | 'order'>;

export type CrmActivityPart = NonNullable<CrmEventPayload['activity']>;

/** One CRM event to emit: `messageId` makes it recognisable when published again (e.g. one per ticket, clock and stage). */
export interface CrmEventSpec {
  type: CrmEventType;
  ticketId: string;
  actor: string;
  parts?: CrmEventParts;
  messageId?: string;
  /** The timeline entry the event carries as `activity`, read with the ticket. */
  activityId?: string;
}

/** An event about an account (the silence alarm), with the id that makes it recognisable when published again. */
export interface CrmAccountEventSpec {
  type: CrmAccountEventType;
  accountId: string;
  silence: CrmAccountEventPayload['silence'];
  messageId: string;
}

/** A made CRM event: what goes to the outbox and webhooks, and what NOTIFY announces. */
interface MadeEvent {
  type: string;
  envelope: Envelope;
  notice: ChangeNotice;
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
  constructor(private readonly db: Queryable) {}

  /** `messageId` makes the event recognisable when published again (e.g. one per ticket, clock and stage). */
  async emit(type: CrmEventType, ticketId: string, actor: string, parts: CrmEventParts = {}, messageId?: string): Promise<string> {
    const [id] = await this.emitAll([{ type, ticketId, actor, parts, messageId }]);
    return id!;
  }

  /**
   * Several events in two statements whatever their number: the tickets (and activities) they
   * describe read in one, the outbox rows, the webhook deliveries and the
   * notifications written in another. In order.
   */
  async emitAll(events: CrmEventSpec[]): Promise<string[]> {
    if (events.length === 0) return [];
    const { tickets, activities } = await this.describe(
      events.map((event) => event.ticketId),
      events.flatMap((event) => (event.activityId ? [event.activityId] : [])),
    );
    const made = events.map(({ type, ticketId, actor, parts = {}, messageId, activityId }) => {
      const ticket = tickets.get(ticketId)!;
      const allParts: CrmEventParts = activityId ? { ...parts, activity: activities.get(activityId)! } : parts;
      const payload: CrmEventPayload = { type, version: CRM_EVENT_VERSION, actor, ticketId, accountId: ticket.accountId, ticket, ...allParts };
      const envelope = makeEnvelope(CrmEvents[type], 'ticketing', payload, messageId ? { id: messageId } : {});
      const notice: ChangeNotice = { id: envelope.id, type, ticketId, accountId: ticket.accountId, actor, occurredAt: envelope.occurredAt, ticket, data: allParts as Record<string, unknown> };
      return { type, envelope, notice };
    });
    await this.queue(made);
    return made.map((m) => m.envelope.id);
  }

  /** Account events (the silence alarm): to the outbox, the webhooks and the live inbox like ticket events, without a ticket. */
  async emitAccountEvents(events: CrmAccountEventSpec[]): Promise<string[]> {
    if (events.length === 0) return [];
    const made = events.map(({ type, accountId, silence, messageId }): MadeEvent => {
      const payload: CrmAccountEventPayload = { type, version: CRM_EVENT_VERSION, actor: 'system', accountId, silence };
      const envelope = makeEnvelope(CrmAccountEvents[type], 'ticketing', payload, { id: messageId });
      return { type, envelope, notice: { id: envelope.id, type, ticketId: null, accountId, actor: 'system', occurredAt: envelope.occurredAt, data: { silence } } };
    });
    await this.queue(made);
    return made.map((m) => m.envelope.id);
  }

  /**
   * The outbox rows, the webhook deliveries and the notifications in one statement, from one JSON
   * parameter (no per-character escaping of text arrays; each envelope sent once). A notice says
   * `webhooks: true` (added last, as a spread would) when the statement queued deliveries.
   */
  private async queue(made: MadeEvent[]): Promise<void> {
    await this.db.query(
      `WITH given AS MATERIALIZED (
         SELECT * FROM ROWS FROM (json_to_recordset($1::json) AS (exchange text, routing_key text, envelope jsonb, notice text))
           WITH ORDINALITY AS g(exchange, routing_key, envelope, notice, n)),
       outboxed AS (${insertOutboxFrom('given', '$3')}),
       queued AS (
         INSERT INTO webhook_deliveries (endpoint_id, event_id, event_type, body)
         SELECT w.id, g.envelope->>'id', g.routing_key, g.envelope FROM given g
           JOIN webhook_endpoints w ON w.event_types = '{}' OR g.routing_key = ANY (w.event_types)
         RETURNING 1)
       SELECT count(pg_notify($2, CASE WHEN EXISTS (SELECT 1 FROM queued) THEN left(g.notice, -1) || ',"webhooks":true}' ELSE g.notice END) ORDER BY g.n) FROM given g`,
      [JSON.stringify(made.map((m) => ({ exchange: Exchanges.crmEvents, routing_key: m.type, envelope: m.envelope, notice: noticeText(m.notice) }))), CHANGES_CHANNEL, outboxTraceContext()],
    );
  }

  /** Announces a change to this process and the others, delivered when (and only if) the transaction commits. */
  notify(notice: ChangeNotice): Promise<void> {
    return this.notifyAll([notice]);
  }

  private async notifyAll(notices: ChangeNotice[]): Promise<void> {
    await this.db.query('SELECT count(pg_notify($1, n)) FROM unnest($2::text[]) AS n', [CHANGES_CHANNEL, notices.map(noticeText)]);
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

  /** The tickets as CRM events describe them, and timeline entries as they carry them (an edited one with its edits in `data`), in one query. */
  private async describe(ticketIds: string[], activityIds: string[]): Promise<{ tickets: Map<string, CrmTicketSummary>; activities: Map<string, CrmActivityPart> }> {
    const { rows } = await this.db.query<{ tickets: CrmTicketSummary[]; activities: CrmActivityPart[] }>(
      `SELECT (SELECT coalesce(json_agg(t), '[]') FROM (
                 SELECT id, account_id AS "accountId", status, channel, queue, folder, assignee, team, priority, tags, merged_into AS "mergedInto",
                        subject, contact_id AS "contactId",
                        to_char(last_activity_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "lastActivityAt",
                        to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "updatedAt"
                   FROM tickets WHERE id = ANY ($1::uuid[])) t) AS tickets,
              (SELECT coalesce(json_agg(a), '[]') FROM (
                 SELECT id, kind, direction, text, to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "occurredAt",
                        CASE WHEN edited_at IS NULL THEN NULL ELSE jsonb_build_object('editedAt', edited_at, 'edits', edits) END AS data
                   FROM activities WHERE id = ANY ($2::uuid[])) a) AS activities`,
      [[...new Set(ticketIds)], [...new Set(activityIds)]],
    );
    const { tickets, activities } = rows[0]!;
    return {
      tickets: new Map(tickets.map((ticket) => [ticket.id, ticket])),
      activities: new Map(activities.map(({ data, ...activity }) => [activity.id, data ? { ...activity, data } : activity])),
    };
  }
}
