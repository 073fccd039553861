import { CHANGES_CHANNEL, type ChangeNotice } from '../adapters/db/crm-events';
import type { TicketingStore } from '../adapters/db/store';
import { isUuid } from '../domain/ids';
import { TicketNotFound } from './errors';

export const PRESENCE_STATES = ['viewing', 'typing', 'left'] as const;
export type PresenceState = (typeof PRESENCE_STATES)[number];

/** How long a presence counts after it was said: a console says it again well within (every third of it). */
export const PRESENCE_TTL_MS = 30_000;

/**
 * Who is on a ticket now (viewing it, typing in it, or just left): announced to the event
 * streams of every replica through the same NOTIFY channel as committed changes, never stored.
 * An announcement counts until its `expiresAt`: a console that closes without saying `left`
 * drops out of the others' view then.
 */
export class Presence {
  constructor(private readonly store: TicketingStore) {}

  async announce(ticketId: string, who: { id: string; name: string }, state: PresenceState): Promise<ChangeNotice> {
    const ticket = isUuid(ticketId) ? await this.store.read.tickets.ticket(ticketId) : null;
    if (!ticket) throw new TicketNotFound(ticketId);
    const now = new Date();
    const notice: ChangeNotice = {
      id: `presence:${ticketId}:${who.id}:${now.getTime()}`,
      type: 'agent.presence',
      ticketId,
      accountId: ticket.account_id,
      actor: who.id,
      occurredAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + PRESENCE_TTL_MS).toISOString(),
      data: { agentId: who.id, name: who.name, state },
    };
    await this.store.pool.query('SELECT pg_notify($1, $2)', [CHANGES_CHANNEL, JSON.stringify(notice)]);
    return notice;
  }
}
