import type { TicketingStore } from '../adapters/db/store';
import type { TicketFilter, TicketRow } from '../adapters/db/ticket-queries';
import { SearchBusy, SearchTimedOut } from './errors';

export interface TicketListSettings {
  /** Searches one credential may run at once; more are refused (SearchBusy). */
  searchesPerCredential: number;
  /** How long the search statement may run (SET LOCAL statement_timeout). */
  searchStatementTimeoutMs: number;
}

/** PostgreSQL's code for a statement cancelled by statement_timeout. */
const QUERY_CANCELED = '57014';

/**
 * The ticket list (`GET /v1/tickets`): a plain page from the pool; a search (`q`) in a
 * transaction of its own with an interactive statement timeout, at most a few per credential at
 * a time in this process, so one agent's searches never take every connection from the others.
 */
export class TicketList {
  private readonly running = new Map<string, number>();
  constructor(
    private readonly store: Pick<TicketingStore, 'read' | 'ticketsWithin'>,
    private readonly settings: TicketListSettings,
  ) {}

  /** One page of tickets; `credentialId` counts the searches of whoever asks. */
  async page(filter: TicketFilter, credentialId: string): Promise<{ rows: TicketRow[]; more: boolean }> {
    if (filter.q === undefined) return this.store.read.tickets.tickets(filter);
    const mine = this.running.get(credentialId) ?? 0;
    if (mine >= this.settings.searchesPerCredential) throw new SearchBusy(this.settings.searchesPerCredential);
    this.running.set(credentialId, mine + 1);
    try {
      return await this.store.ticketsWithin(this.settings.searchStatementTimeoutMs, filter);
    } catch (error) {
      if ((error as { code?: string }).code === QUERY_CANCELED) throw new SearchTimedOut();
      throw error;
    } finally {
      const left = this.running.get(credentialId)! - 1;
      if (left === 0) this.running.delete(credentialId);
      else this.running.set(credentialId, left);
    }
  }
}
