import type { Queryable } from './queryable';

/**
 * The counters of the agents' workspace's views (table ticket_view_counts), kept by the
 * tickets' trigger; the views read them through TicketQueries.counts.
 */
export class ViewCountRepository {
  constructor(private readonly db: Queryable) {}

  /**
   * Folds each combination's slots into one row and drops the combinations no ticket is in any
   * more (the counts stay the same); how many rows it took. Bounds what a count reads.
   */
  async fold(): Promise<number> {
    const { rows } = await this.db.query<{ taken: string }>('SELECT ticket_view_counts_fold() AS taken');
    return Number(rows[0]!.taken);
  }
}
