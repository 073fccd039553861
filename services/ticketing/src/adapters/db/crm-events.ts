import { CRM_EVENT_VERSION, CrmEvents, Exchanges, type CrmEventPayload, type CrmEventType, type CrmTicketSummary, type Envelope } from '@crm/contracts';
import { makeEnvelope } from '@crm/messaging';
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
  /** Present when it fits: the ticket as the event describes it. */
  ticket?: CrmTicketSummary;
  /** Typing indicators: when the indicator stops counting. */
  expiresAt?: string;
  data?: Record<string, unknown>;
}

const NOTIFY_LIMIT = 7_500;

export type CrmEventParts = Pick<CrmEventPayload, 'changes' | 'activity' | 'merge' | 'sla'>;

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
    private readonly outbox: { enqueue(exchange: string, routingKey: string, envelope: Envelope): Promise<void> },
  ) {}

  /** `messageId` makes the event recognisable when published again (e.g. one per ticket, clock and stage). */
  async emit(type: CrmEventType, ticketId: string, actor: string, parts: CrmEventParts = {}, messageId?: string): Promise<string> {
    const ticket = await this.summary(ticketId);
    const payload: CrmEventPayload = { type, version: CRM_EVENT_VERSION, actor, ticketId, accountId: ticket.accountId, ticket, ...parts };
    const envelope = makeEnvelope(CrmEvents[type], 'ticketing', payload, messageId ? { id: messageId } : {});
    await this.outbox.enqueue(Exchanges.crmEvents, type, envelope);
    await this.db.query(
      `INSERT INTO webhook_deliveries (endpoint_id, event_id, event_type, body)
       SELECT id, $1, $2, $3::jsonb FROM webhook_endpoints WHERE event_types = '{}' OR $2 = ANY (event_types)`,
      [envelope.id, type, JSON.stringify(envelope)],
    );
    await this.notify({ id: envelope.id, type, ticketId, accountId: ticket.accountId, actor, occurredAt: envelope.occurredAt, ticket, data: parts as Record<string, unknown> });
    return envelope.id;
  }

  /** Announces a change to this process and the others, delivered when (and only if) the transaction commits. */
  async notify(notice: ChangeNotice): Promise<void> {
    let text = JSON.stringify(notice);
    if (text.length > NOTIFY_LIMIT) text = JSON.stringify({ ...notice, ticket: undefined, data: undefined });
    await this.db.query('SELECT pg_notify($1, $2)', [CHANGES_CHANNEL, text]);
  }

  /** A timeline entry as a CRM event carries it. */
  async activityPart(activityId: string): Promise<NonNullable<CrmEventPayload['activity']>> {
    const { rows } = await this.db.query<{ id: string; kind: string; direction: string; text: string | null; occurred_at: Date }>(
      'SELECT id, kind, direction, text, occurred_at FROM activities WHERE id = $1',
      [activityId],
    );
    const row = rows[0]!;
    return { id: row.id, kind: row.kind, direction: row.direction, text: row.text, occurredAt: row.occurred_at.toISOString() };
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

  private async summary(ticketId: string): Promise<CrmTicketSummary> {
    const { rows } = await this.db.query<CrmTicketSummary>(
      `SELECT id, account_id AS "accountId", status, channel, queue, folder, assignee, team, priority, tags, merged_into AS "mergedInto",
              subject, contact_id AS "contactId",
              to_char(last_activity_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "lastActivityAt",
              to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "updatedAt"
         FROM tickets WHERE id = $1`,
      [ticketId],
    );
    return rows[0]!;
  }
}
