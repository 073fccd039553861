import type { Logger } from '@crm/logging';
import type { TicketingStore } from '../adapters/db/store';

/** What every message handler of ticketing gets. */
export interface HandlerDeps {
  store: TicketingStore;
  logger: Logger;
  /** Held deliveries one account may have (HELD_MAX_PER_ACCOUNT). */
  heldCap?: number;
  /** Recording transactions open at once (ACTIVITY_TRANSACTIONS). */
  recordingTransactions?: number;
  /** Called with the envelope id once a message is handled (its effect committed, or nothing to do). */
  onHandled?: (envelopeId: string) => void;
  /** Called with a delivery's envelope id once it is in the raw log. */
  onRawLogged?: (envelopeId: string) => void;
}
