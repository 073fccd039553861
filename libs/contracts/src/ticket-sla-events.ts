import { defineContract } from './envelope';

/**
 * Ticket SLA events on the `crm.events` topic exchange, published by ticketing (through its
 * outbox, after the commit that flags the ticket): `ticket.sla_at_risk` when a clock has used
 * its at-risk share of the budget, `ticket.sla_breached` when it has used all of it. One
 * message per ticket, clock and stage; the message id is stable, so a republish is
 * recognisable.
 */
export const TicketSlaKeys = {
  breached: 'ticket.sla_breached',
  atRisk: 'ticket.sla_at_risk',
} as const;

export interface TicketSlaEventPayload {
  ticketId: string;
  accountId: string;
  /** Which clock: the first response or the resolution. */
  clock: 'first_response' | 'resolution';
  /** When the clock reached the stage (its due time, or its at-risk time). */
  dueAt: string;
  /** When ticketing noticed it and flagged the ticket. */
  detectedAt: string;
}

const schema = {
  type: 'object',
  required: ['ticketId', 'accountId', 'clock', 'dueAt', 'detectedAt'],
  additionalProperties: false,
  properties: {
    ticketId: { type: 'string', format: 'uuid' },
    accountId: { type: 'string', pattern: '^[0-9]{1,30}$' },
    clock: { type: 'string', enum: ['first_response', 'resolution'] },
    dueAt: { type: 'string', format: 'date-time' },
    detectedAt: { type: 'string', format: 'date-time' },
  },
} as const;

export const TicketSlaBreached = defineContract<TicketSlaEventPayload>('crm.ticket.sla_breached.v1', schema);
export const TicketSlaAtRisk = defineContract<TicketSlaEventPayload>('crm.ticket.sla_at_risk.v1', schema);
