/** ticketing's command line (see cli.ts), callable in-process by tests. */
import { parseArgs } from 'node:util';
import { createPool, ensureDatabase, migrate } from '@crm/db';
import type { Logger } from '@crm/logging';
import { TicketingStore } from './adapters/db/store';
import type { TicketingConfig } from './config';
import { rebuildFromRawLog, type RebuildProgress } from './operations/rebuild';
import { MIGRATIONS_DIR } from './service';

export const USAGE = `usage: cli rebuild --into <database url> [--account <accountId>]
  Rebuilds the tickets, activities and contacts of one account, or of all, from the raw log of
  DATABASE_URL into the database at --into (created and migrated; it must hold no tickets yet).`;

export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

interface RebuildArgs {
  into: string;
  accountId?: string;
}

function parseRebuildArgs(argv: string[]): RebuildArgs | { problem: string } {
  try {
    const { positionals, values } = parseArgs({ args: argv, allowPositionals: true, options: { into: { type: 'string' }, account: { type: 'string' } } });
    if (positionals[0] !== 'rebuild' || positionals.length > 1) return { problem: 'the only command is rebuild' };
    if (!values.into || !/^postgres(ql)?:\/\//.test(values.into)) return { problem: '--into must be a postgres:// URL of the database to rebuild into' };
    if (values.account !== undefined && !/^[0-9]{1,20}$/.test(values.account)) return { problem: '--account must be a numeric account id' };
    return { into: values.into, accountId: values.account };
  } catch (error) {
    return { problem: (error as Error).message };
  }
}

const sameDatabase = (a: string, b: string) => {
  const [x, y] = [new URL(a), new URL(b)];
  return x.host === y.host && x.pathname === y.pathname;
};

/** Runs one command; resolves with the exit code (0 done, 1 failed, 2 usage). */
export async function runCli(argv: string[], config: TicketingConfig, logger: Logger, io: CliIo): Promise<number> {
  const args = parseRebuildArgs(argv);
  if ('problem' in args) {
    io.err(`${args.problem}\n${USAGE}`);
    return 2;
  }
  if (sameDatabase(args.into, config.DATABASE_URL)) {
    io.err(`--into names the live database; rebuild into a fresh one\n${USAGE}`);
    return 2;
  }
  await ensureDatabase(args.into);
  await migrate(args.into, MIGRATIONS_DIR, logger);
  const [source, target] = [new TicketingStore(createPool(config.DATABASE_URL, { max: 2, applicationName: 'ticketing-rebuild' })), new TicketingStore(createPool(args.into, { max: 2, applicationName: 'ticketing-rebuild' }))];
  try {
    if ((await target.read.tickets.count()) > 0) {
      io.err('the database at --into already holds tickets; rebuild into a fresh one');
      return 1;
    }
    const { rawLog } = source;
    const total = await rawLog.count(args.accountId);
    const report = (progress: RebuildProgress) => io.err(`rebuild: ${progress.read} of ${total} deliveries read, ${progress.invalid} invalid, ${progress.held} held`);
    let last = 0;
    const done = await rebuildFromRawLog({ rawLog, source, target, accountId: args.accountId, onProgress: (progress) => (progress.read - last >= 1_000 ? (report(progress), (last = progress.read)) : undefined) });
    io.out(JSON.stringify({ into: new URL(args.into).pathname.slice(1), accountId: args.accountId ?? null, ...done, tickets: await target.read.tickets.count() }, null, 2));
    return 0;
  } finally {
    await Promise.all([source.end(), target.end()]);
  }
}
