import type { Queryable } from './queryable';
import type { SlaClock, SlaStage, StatusChange } from '../../domain/sla';
import type { TicketStatus } from '@crm/contracts';

/** What the SLA clocks of a ticket are computed from, read under the ticket's row lock. */
export interface SlaTicket {
  id: string;
  accountId: string;
  status: TicketStatus;
  createdAt: Date;
  firstResponseAt: Date | null;
  priority: string | null;
  breached: boolean;
  atRisk: boolean;
  /** Its status history, in order (ticket_sla_history). */
  history: StatusChange[];
}

export interface SlaTimer {
  clock: SlaClock;
  stage: SlaStage;
  dueAt: Date | null;
  firedAt: Date | null;
}

interface TicketRow {
  id: string;
  account_id: string;
  status: TicketStatus;
  created_at: Date;
  first_response_at: Date | null;
  priority: string | null;
  sla_breached: boolean;
  sla_at_risk: boolean;
  history: { status: TicketStatus; at: string }[];
}

const TICKET = `SELECT id, account_id, status, created_at, first_response_at, priority, sla_breached, sla_at_risk,
       (SELECT coalesce(json_agg(json_build_object('status', h.status, 'at', h.at) ORDER BY h.at, h.id), '[]')
          FROM ticket_sla_history h WHERE h.ticket_id = tickets.id) AS history
  FROM tickets WHERE id = $1`;

const slaTicket = (row: TicketRow | undefined): SlaTicket | null =>
  row
    ? {
        id: row.id,
        accountId: row.account_id,
        status: row.status,
        createdAt: row.created_at,
        firstResponseAt: row.first_response_at,
        priority: row.priority,
        breached: row.sla_breached,
        atRisk: row.sla_at_risk,
        history: row.history.map((change) => ({ status: change.status, at: new Date(change.at) })),
      }
    : null;

/** The SLA side of tickets: status history, timers, flags and breach entries. */
export class SlaRepository {
  constructor(private readonly db: Queryable) {}

  /** The ticket, locked for this transaction (waiting for another holder); null when it does not exist. */
  async lockSlaTicket(ticketId: string): Promise<SlaTicket | null> {
    const { rows } = await this.db.query<TicketRow>(`${TICKET} FOR UPDATE`, [ticketId]);
    return slaTicket(rows[0]);
  }

  /** The ticket, locked for this transaction; null when another transaction holds it (or it is gone). */
  async tryLockSlaTicket(ticketId: string): Promise<SlaTicket | null> {
    const { rows } = await this.db.query<TicketRow>(`${TICKET} FOR UPDATE SKIP LOCKED`, [ticketId]);
    return slaTicket(rows[0]);
  }

  async readTimers(ticketId: string): Promise<SlaTimer[]> {
    const { rows } = await this.db.query<{ clock: SlaClock; stage: SlaStage; due_at: Date | null; fired_at: Date | null }>(
      'SELECT clock, stage, due_at, fired_at FROM sla_timers WHERE ticket_id = $1',
      [ticketId],
    );
    return rows.map((row) => ({ clock: row.clock, stage: row.stage, dueAt: row.due_at, firedAt: row.fired_at }));
  }

  /**
   * What an evaluation found, in one statement: the statuses to append to the history, when the
   * timers not due yet are due (null: not running; a timer that has fired keeps its time), and
   * the ticket's due times and flags (null: left as they are).
   */
  async saveEvaluation(
    ticketId: string,
    found: {
      statuses: StatusChange[];
      timers: { clock: SlaClock; stage: SlaStage; dueAt: Date | null }[];
      state: { firstResponseDueAt: Date | null; resolutionDueAt: Date | null; breached: boolean; atRisk: boolean } | null;
    },
  ): Promise<void> {
    const { statuses, timers, state } = found;
    await this.db.query(
      `WITH statuses AS (
         INSERT INTO ticket_sla_history (ticket_id, status, at)
         SELECT $1, status, at FROM unnest($2::text[], $3::timestamptz[]) WITH ORDINALITY AS s(status, at, n) ORDER BY n
         RETURNING 1),
       timers AS (
         INSERT INTO sla_timers (ticket_id, clock, stage, due_at)
         SELECT $1, clock, stage, due_at FROM unnest($4::text[], $5::text[], $6::timestamptz[]) AS t(clock, stage, due_at)
         ON CONFLICT (ticket_id, clock, stage) DO UPDATE SET due_at = EXCLUDED.due_at
          WHERE sla_timers.fired_at IS NULL AND sla_timers.due_at IS DISTINCT FROM EXCLUDED.due_at
         RETURNING 1),
       state AS (
         UPDATE tickets SET first_response_due_at = $7, resolution_due_at = $8, sla_breached = sla_breached OR $9, sla_at_risk = $10
          WHERE id = $1 AND $11
         RETURNING 1)
       SELECT (SELECT count(*) FROM statuses) + (SELECT count(*) FROM timers) + (SELECT count(*) FROM state) AS changed`,
      [
        ticketId,
        statuses.map((change) => change.status),
        statuses.map((change) => change.at),
        timers.map((timer) => timer.clock),
        timers.map((timer) => timer.stage),
        timers.map((timer) => timer.dueAt),
        state?.firstResponseDueAt ?? null,
        state?.resolutionDueAt ?? null,
        state?.breached ?? false,
        state?.atRisk ?? false,
        state !== null,
      ],
    );
  }

  /** Marks a timer fired; false when it had fired already (then nothing is to be done again). */
  async markFired(ticketId: string, clock: SlaClock, stage: SlaStage, dueAt: Date, firedAt: Date): Promise<boolean> {
    const { rowCount } = await this.db.query(
      `UPDATE sla_timers SET fired_at = $5, due_at = $4 WHERE ticket_id = $1 AND clock = $2 AND stage = $3 AND fired_at IS NULL`,
      [ticketId, clock, stage, dueAt, firedAt],
    );
    return (rowCount ?? 0) > 0;
  }

  /** A breach on the ticket's timeline: an event activity keyed by ticket and clock, so it is written once. */
  async addBreachEntry(ticket: SlaTicket, clock: SlaClock, dueAt: Date): Promise<void> {
    const what = clock === 'first_response' ? 'First response' : 'Resolution';
    await this.db.query(
      `INSERT INTO activities (account_id, ticket_id, kind, direction, text, platform_event_id, occurred_at, raw)
       VALUES ($1, $2, 'sla_breached', 'event', $3, $4, $5, $6::jsonb)
       ON CONFLICT (account_id, platform_event_id) DO NOTHING`,
      [ticket.accountId, ticket.id, `${what} SLA breached (due ${dueAt.toISOString()})`, `sla_breached:${ticket.id}:${clock}`, dueAt, JSON.stringify({ clock, dueAt })],
    );
  }

  /** Tickets with a timer due at `now`, soonest first. */
  async ticketsWithDueTimers(now: Date, limit: number): Promise<string[]> {
    const { rows } = await this.db.query<{ ticket_id: string }>(
      `SELECT ticket_id FROM sla_timers WHERE fired_at IS NULL AND due_at <= $1 GROUP BY ticket_id ORDER BY min(due_at) LIMIT $2`,
      [now, limit],
    );
    return rows.map((row) => row.ticket_id);
  }

  /** The ticket an activity is on, if any. */
  async ticketOfActivity(activityId: string): Promise<string | null> {
    const { rows } = await this.db.query<{ ticket_id: string | null }>('SELECT ticket_id FROM activities WHERE id = $1', [activityId]);
    return rows[0]?.ticket_id ?? null;
  }
}
