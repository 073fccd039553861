import type { SocialAction, SocialCommandResultPayload } from '@crm/contracts';
import type { Pool, PoolClient } from '@crm/db';

export type CommandState = 'pending' | 'sending' | 'succeeded' | 'failed' | 'unknown';

export interface CommandRecord {
  commandId: string;
  source: 'broker' | 'http';
  action: SocialAction;
  accountId: string;
  inputSha256: string;
  state: CommandState;
  attempts: number;
  sendingSince: Date | null;
  result: SocialCommandResultPayload | null;
}

interface Row {
  command_id: string;
  source: 'broker' | 'http';
  action: SocialAction;
  account_id: string;
  input_sha256: string;
  state: CommandState;
  attempts: number;
  sending_since: Date | null;
  result: SocialCommandResultPayload | null;
}

const fromRow = (row: Row): CommandRecord => ({
  commandId: row.command_id,
  source: row.source,
  action: row.action,
  accountId: row.account_id,
  inputSha256: row.input_sha256,
  state: row.state,
  attempts: row.attempts,
  sendingSince: row.sending_since,
  result: row.result,
});

/**
 * The record of every command, written before auth calls out. `sending` marks a call in
 * flight: found after a crash, it means the outcome is unknown.
 */
export class CommandStore {
  constructor(private readonly pool: Pool) {}

  /** Records a new command, or returns the one already recorded under its id. */
  async record(command: Pick<CommandRecord, 'commandId' | 'source' | 'action' | 'accountId' | 'inputSha256'>): Promise<CommandRecord> {
    const { rows } = await this.pool.query<Row>(
      `WITH inserted AS (
         INSERT INTO commands (command_id, source, action, account_id, input_sha256, state) VALUES ($1, $2, $3, $4, $5, 'pending')
         ON CONFLICT (command_id) DO NOTHING RETURNING *)
       SELECT * FROM inserted UNION ALL SELECT * FROM commands WHERE command_id = $1 LIMIT 1`,
      [command.commandId, command.source, command.action, command.accountId, command.inputSha256],
    );
    // A concurrent insert of the same id is invisible to this statement's snapshot: read it afterwards.
    const row = rows[0] ?? (await this.pool.query<Row>('SELECT * FROM commands WHERE command_id = $1', [command.commandId])).rows[0];
    return fromRow(row!);
  }

  /**
   * Takes the command for one call out: from `pending`, or from a `sending` left behind
   * longer than `leaseMs` ago (its caller died) when `takeOver` allows it. False when another
   * worker holds it.
   */
  async claim(commandId: string, leaseMs: number, takeOver: boolean): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `UPDATE commands SET state = 'sending', sending_since = now(), attempts = attempts + 1, updated_at = now()
       WHERE command_id = $1 AND (state = 'pending' OR ($3 AND state = 'sending' AND sending_since < now() - make_interval(secs => $2 / 1000.0)))`,
      [commandId, leaseMs, takeOver],
    );
    return (rowCount ?? 0) > 0;
  }

  /** The call was not made, or surely had no effect: the command may be tried again. */
  async release(commandId: string): Promise<void> {
    await this.pool.query(`UPDATE commands SET state = 'pending', sending_since = NULL, updated_at = now() WHERE command_id = $1 AND state = 'sending'`, [commandId]);
  }

  async finish(commandId: string, state: 'succeeded' | 'failed' | 'unknown', result: SocialCommandResultPayload, db: Pool | PoolClient = this.pool): Promise<void> {
    await db.query(`UPDATE commands SET state = $2, result = $3, sending_since = NULL, updated_at = now() WHERE command_id = $1`, [commandId, state, JSON.stringify(result)]);
  }

  async find(commandId: string): Promise<CommandRecord | null> {
    const { rows } = await this.pool.query<Row>('SELECT * FROM commands WHERE command_id = $1', [commandId]);
    return rows[0] ? fromRow(rows[0]) : null;
  }
}
