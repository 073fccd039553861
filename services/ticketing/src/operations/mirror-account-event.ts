import type { TicketingStore } from '../adapters/db/store';
import type { AccountChange } from '../domain/accounts';

/**
 * Keeps ticketing's mirror of an account (status, and the masked credentials the partner
 * configuration shows) in step with auth. The newest change wins, so redelivered and
 * reordered events settle the same way; returns whether this one changed anything.
 */
export function mirrorAccountChange(store: TicketingStore, change: AccountChange): Promise<boolean> {
  return store.transaction((tx) => tx.accounts.recordChange(change));
}
