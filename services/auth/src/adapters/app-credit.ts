import type { SocialAction } from '@crm/contracts';
import { withTransaction, type Pool, type PoolClient } from '@crm/db';

/** A broker command kept until credit is back: what the executor needs to send it then. */
export interface HeldCommand {
  seq: string;
  commandId: string;
  action: SocialAction;
  accountId: string;
  input: Record<string, unknown>;
  context?: Record<string, string>;
}

export type CommandToHold = Omit<HeldCommand, 'seq'>;

export interface CreditState {
  outOfCredit: boolean;
  /** When the platform first refused for spent credit in this episode; null when in credit. */
  since: Date | null;
  heldCommands: number;
}

/** Any number of replicas take turns at sending the held commands: this lock (per database) lets one at a time. */
const DRAIN_LOCK = 'auth.held_commands.drain';

/**
 * Whether the app is out of credit (one row), and the commands held meanwhile (in arrival order).
 * Holding and checking take the credit row's lock (shared), marking it takes it exclusively:
 * a command is never held after the state it was held for has changed.
 */
export class AppCreditStore {
  constructor(private readonly pool: Pool) {}

  async state(): Promise<CreditState> {
    const { rows } = await this.pool.query<{ out_of_credit: boolean; since: Date | null; held: string }>(
      'SELECT out_of_credit, since, (SELECT count(*) FROM held_commands) AS held FROM app_credit',
    );
    const row = rows[0];
    return { outOfCredit: row?.out_of_credit ?? false, since: row?.since ?? null, heldCommands: Number(row?.held ?? 0) };
  }

  /** Marks the app out of credit; the time it started when this began a new episode, else null (it was already). */
  async markOut(client: PoolClient): Promise<Date | null> {
    const { rows } = await client.query<{ since: Date }>(
      `UPDATE app_credit SET out_of_credit = true, since = now(), updated_at = now() WHERE NOT out_of_credit RETURNING since`,
    );
    return rows[0]?.since ?? null;
  }

  /** Marks the app in credit again; when the episode that ended began, or null when it was not out of credit. */
  async markRestored(client: PoolClient): Promise<Date | null> {
    const { rows } = await client.query<{ since: Date }>(
      `UPDATE app_credit cur SET out_of_credit = false, since = NULL, updated_at = now()
         FROM app_credit before WHERE cur.id = before.id AND cur.out_of_credit RETURNING before.since`,
    );
    return rows[0]?.since ?? null;
  }

  /** Holds `command` at the end of the line (a command held before keeps its place). */
  async hold(client: PoolClient, command: CommandToHold): Promise<void> {
    await client.query(
      'INSERT INTO held_commands (command_id, command) VALUES ($1, $2) ON CONFLICT (command_id) DO NOTHING',
      [command.commandId, JSON.stringify({ action: command.action, accountId: command.accountId, input: command.input, ...(command.context ? { context: command.context } : {}) })],
    );
  }

  /**
   * Holds `command` when the app is out of credit or commands are still held (a later command
   * must not overtake them): whether it was held, and whether the app is out of credit.
   */
  holdIfHolding(command: CommandToHold): Promise<{ held: boolean; outOfCredit: boolean }> {
    return withTransaction(this.pool, async (client) => {
      const { rows } = await client.query<{ out_of_credit: boolean; behind: boolean }>(
        'SELECT out_of_credit, EXISTS (SELECT 1 FROM held_commands) AS behind FROM app_credit FOR SHARE',
      );
      const outOfCredit = rows[0]?.out_of_credit ?? false;
      if (!outOfCredit && !rows[0]?.behind) return { held: false, outOfCredit };
      await this.hold(client, command);
      return { held: true, outOfCredit };
    });
  }

  /** The first held command, or null. */
  async first(): Promise<HeldCommand | null> {
    const { rows } = await this.pool.query<{ seq: string; command_id: string; command: Omit<HeldCommand, 'seq' | 'commandId'> }>(
      'SELECT seq, command_id, command FROM held_commands ORDER BY seq LIMIT 1',
    );
    const row = rows[0];
    return row ? { seq: row.seq, commandId: row.command_id, ...row.command } : null;
  }

  async release(seq: string): Promise<void> {
    await this.pool.query('DELETE FROM held_commands WHERE seq = $1', [seq]);
  }

  /** Runs `work` unless another process is sending the held commands now (then undefined). The lock ends with its session, should this process die. */
  async exclusively<T>(work: () => Promise<T>): Promise<T | undefined> {
    const client = await this.pool.connect();
    try {
      const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock(hashtext($1)) AS locked', [DRAIN_LOCK]);
      if (!rows[0]?.locked) return undefined;
      try {
        return await work();
      } finally {
        await client.query('SELECT pg_advisory_unlock(hashtext($1))', [DRAIN_LOCK]);
      }
    } finally {
      client.release();
    }
  }
}
