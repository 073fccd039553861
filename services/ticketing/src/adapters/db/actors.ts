import type { Pool } from '@crm/db';

/** Names remembered per process before the table is asked again; beyond, the memory starts over. */
const REMEMBERED = 10_000;

/**
 * The names of the principals that write (table `actors`): recorded before each write, so the
 * timeline can show who made an entry by name. The table is written only when this process
 * has not seen the principal under that name yet.
 */
export class ActorDirectory {
  private readonly known = new Map<string, string>();

  constructor(private readonly pool: Pool) {}

  async remember(id: string, name: string): Promise<void> {
    if (this.known.get(id) === name) return;
    await this.pool.query(
      `INSERT INTO actors (id, name) VALUES ($1, $2)
       ON CONFLICT (id) DO UPDATE SET name = excluded.name, seen_at = now() WHERE actors.name IS DISTINCT FROM excluded.name`,
      [id, name],
    );
    if (this.known.size >= REMEMBERED) this.known.clear();
    this.known.set(id, name);
  }
}
