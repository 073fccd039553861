import { principalOf } from '@crm/access';
import { Refusal } from '@crm/http';
import { PRESENCE_STATES, type Presence, type PresenceState } from '../operations/presence';
import type { TicketHandler } from './reach';

/**
 * `PUT /v1/tickets/:id/presence {state: viewing|typing|left}`: the caller is on the ticket.
 * Every event stream that hears the ticket gets `agent.presence` with who (id and name), the
 * state and until when it counts. Needs `tickets:read` only: it changes nothing.
 */
export function presenceRoute(presence: Presence): TicketHandler {
  return async (ticketId, req, res) => {
    const state = (req.body as { state?: unknown } | undefined)?.state;
    if (typeof state !== 'string' || !(PRESENCE_STATES as readonly string[]).includes(state)) throw new Refusal('invalid', 'invalid_presence', `/state must be one of ${PRESENCE_STATES.join(', ')}`);
    const { id, grant } = principalOf(req);
    const notice = await presence.announce(ticketId, { id, name: grant.name }, state as PresenceState);
    res.json({ state, expiresAt: notice.expiresAt });
  };
}
