/** `cli xaa ...`: the X Activity API webhook, subscriptions and replays (see cli.ts). */
import { parseArgs } from 'node:util';
import type { Logger } from '@crm/logging';
import { AuthDatabase } from './adapters/database';
import type { CliIo } from './cli-io';
import type { AuthConfig } from './config';
import { MIGRATIONS_DIR, platformParts, registerConfigSecrets, xaaParts } from './service';

export const XAA_USAGE = `       cli xaa webhook register|list|delete <webhookId>
       cli xaa subscribe|unsubscribe <accountId>
       cli xaa replay --from <iso time> --to <iso time>`;

const ID = /^[0-9]{1,20}$/;

class UsageError extends Error {}

interface XaaArgs {
  command: string;
  target?: string;
  from?: number;
  to?: number;
}

/** `--from`/`--to` as instants; the platform takes whole minutes, the end minute included. */
function replayBounds(values: { from?: string; to?: string }): { from: number; to: number } {
  const from = values.from === undefined ? NaN : Date.parse(values.from);
  const to = values.to === undefined ? NaN : Date.parse(values.to);
  if (Number.isNaN(from) || Number.isNaN(to)) throw new UsageError('replay needs --from and --to as ISO times, e.g. --from 2026-11-25T06:00Z --to 2026-11-25T06:40Z');
  if (from >= to) throw new UsageError('--from must be before --to');
  return { from, to };
}

export function parseXaaArgs(argv: string[]): XaaArgs {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options: { from: { type: 'string' }, to: { type: 'string' } } });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const [first, second, third] = parsed.positionals;
  const command = first === 'webhook' ? `webhook ${second ?? ''}` : (first ?? '');
  const target = first === 'webhook' ? third : second;
  switch (command) {
    case 'webhook register':
    case 'webhook list':
      return { command };
    case 'webhook delete':
    case 'subscribe':
    case 'unsubscribe':
      if (!target || !ID.test(target)) throw new UsageError(`xaa ${command} needs a numeric id`);
      return { command, target };
    case 'replay':
      return { command, ...replayBounds(parsed.values) };
    default:
      throw new UsageError(`unknown command: xaa ${argv.join(' ')}`);
  }
}

async function runXaaCommand(args: XaaArgs, xaa: ReturnType<typeof xaaParts>): Promise<unknown> {
  switch (args.command) {
    case 'webhook register':
      return xaa.admin.registerWebhook();
    case 'webhook list':
      return { items: await xaa.admin.listWebhooks() };
    case 'webhook delete':
      await xaa.admin.deleteWebhook(args.target!);
      return { deleted: args.target };
    case 'subscribe':
      return xaa.admin.subscribe(args.target!);
    case 'unsubscribe':
      return xaa.admin.unsubscribe(args.target!);
    default: // replay
      return xaa.replays.queue(args.from!, args.to!, 'asked by an operator');
  }
}

/** Runs one `cli xaa` command; resolves with the exit code. */
export async function runXaaCli(argv: string[], config: AuthConfig, logger: Logger, io: CliIo): Promise<number> {
  let args: XaaArgs;
  try {
    args = parseXaaArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.err(`${error.message}\nusage: ${XAA_USAGE.trim()}`);
    return 2;
  }
  registerConfigSecrets(config);
  const db = await AuthDatabase.open(config, logger, { migrationsDir: MIGRATIONS_DIR, applicationName: 'auth-cli', max: 2 });
  try {
    const result = await runXaaCommand(args, xaaParts(config, db, platformParts(config, db, logger).platform, logger));
    io.out(JSON.stringify(result, null, 2));
    return (result as { status?: string }).status === 'failed' ? 1 : 0;
  } catch (error) {
    io.err(`${(error as Error).name}: ${(error as Error).message}`);
    return 1;
  } finally {
    await db.end();
  }
}
