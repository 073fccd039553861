import type { TicketFilter, TicketRow } from '../adapters/db/ticket-queries';
import { SearchBusy, SearchTimedOut } from './errors';
import { TicketList } from './list-tickets';

/** A store whose timed reads wait until released, or fail as PostgreSQL does on statement_timeout. */
function storeStandIn() {
  const waiting: (() => void)[] = [];
  const page = { rows: [] as TicketRow[], more: false };
  let failWith: Error | null = null;
  const store = {
    read: { tickets: { tickets: async () => page } },
    ticketsWithin: (_timeoutMs: number, _filter: TicketFilter) =>
      new Promise<typeof page>((resolve, reject) => {
        if (failWith) reject(failWith);
        else waiting.push(() => resolve(page));
      }),
  };
  return {
    store: store as unknown as ConstructorParameters<typeof TicketList>[0],
    waiting,
    failWith: (error: Error) => (failWith = error),
  };
}

const search: TicketFilter = { limit: 50, q: { orderNumbers: [], handles: [], words: 'parcel' } };

describe('TicketList', () => {
  it("refuses a credential's search beyond its limit until one of its searches answers", async () => {
    const standIn = storeStandIn();
    const list = new TicketList(standIn.store, { searchesPerCredential: 1, searchStatementTimeoutMs: 1_000 });
    const first = list.page(search, 'credential-a');
    await expect(list.page(search, 'credential-a')).rejects.toBeInstanceOf(SearchBusy);
    const other = list.page(search, 'credential-b');
    await expect(list.page({ limit: 50 }, 'credential-a')).resolves.toEqual({ rows: [], more: false });
    for (const release of standIn.waiting.splice(0)) release();
    await Promise.all([first, other]);
    const again = list.page(search, 'credential-a');
    standIn.waiting.splice(0)[0]!();
    await expect(again).resolves.toEqual({ rows: [], more: false });
  });

  it('answers a search stopped by the statement timeout as SearchTimedOut, and frees its place', async () => {
    const standIn = storeStandIn();
    const list = new TicketList(standIn.store, { searchesPerCredential: 1, searchStatementTimeoutMs: 1_000 });
    standIn.failWith(Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }));
    await expect(list.page(search, 'credential-a')).rejects.toBeInstanceOf(SearchTimedOut);
    await expect(list.page(search, 'credential-a')).rejects.toBeInstanceOf(SearchTimedOut);
  });
});
