/** The auth CLI's commands (see cli.ts), callable in-process by tests. */
import { parseArgs } from 'node:util';
import { SYSTEM_TOPOLOGY } from '@crm/contracts';
import type { Logger } from '@crm/logging';
import { Broker, Publisher } from '@crm/messaging';
import { AuthDatabase } from './adapters/database';
import { AGENTS_USAGE, runAgentsCli } from './cli-agents';
import { CREDENTIALS_USAGE, runCredentialsCli } from './cli-credentials';
import { runXaaCli, XAA_USAGE } from './cli-xaa';
import type { CliIo } from './cli-io';
import type { AuthConfig } from './config';
import { WebhookAdmin, type WebhookCheck } from './operations/webhooks';
import { MIGRATIONS_DIR, platformParts, registerConfigSecrets } from './service';

export const USAGE = `usage: cli webhook register|list|check|crc <id>|delete <id> [--owner <accountId>]
       cli subscription add|check|remove <accountId>
       cli subscription list|count
       cli rotate-key
${CREDENTIALS_USAGE}
${AGENTS_USAGE}
${XAA_USAGE}`;

/** The stack's per-service forms (`pnpm start` reads AUTH_DATABASE_URL, ...), honoured where the plain name is unset. */
const STACK_PREFIXED = ['DATABASE_URL', 'DATABASE_MIGRATION_URL', 'AMQP_URL'] as const;

export function cliEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const merged = { ...env };
  for (const name of STACK_PREFIXED) if (merged[name] === undefined && env[`AUTH_${name}`] !== undefined) merged[name] = env[`AUTH_${name}`];
  return merged;
}

export const HELP = `${USAGE}

Runs against auth's database and the platform directly (auth need not be running) and prints JSON.
Exit codes: 0 done, 1 failed, 2 usage.

Reads auth's own settings (services/auth/README.md lists them all), among them:
  DATABASE_URL (or AUTH_DATABASE_URL, as pnpm start reads it), DATABASE_MIGRATION_URL (or AUTH_DATABASE_MIGRATION_URL)
  AMQP_URL (or AUTH_AMQP_URL)        the broker, for announcements (webhook check, credentials revoke)
  SOCIAL_API_URL, SOCIAL_CONSUMER_KEY, SOCIAL_CONSUMER_SECRET, SOCIAL_ENV_NAME, PUBLIC_WEBHOOK_URL
  XAA_EVENT_TYPES                    the event types \`xaa subscribe\` subscribes an account to (all a help desk needs by default)
  XAA_REPLAY_MIN_START_AGE_SECONDS, XAA_REPLAY_MIN_END_AGE_SECONDS   the platform's replay rules: \`xaa replay\` queues a window
                                     too recent and asks for it when allowed (the running auth asks on its heartbeat)
  CREDENTIALS_KEY, CREDENTIALS_KEY_PREVIOUS (rotate-key)
  NODE_ENV                           development or test: local development secrets; otherwise every secret must be set`;


const ACCOUNT_ID = /^[0-9]{1,20}$/;

interface CliArgs {
  group?: string;
  verb?: string;
  target?: string;
  owner?: string;
}

/** The command line's parts, or what is wrong with it. */
function parseCliArgs(argv: string[]): CliArgs | { problem: string } {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options: { owner: { type: 'string' } } });
  } catch (error) {
    return { problem: (error as Error).message };
  }
  const [group, verb, target] = parsed.positionals;
  const owner = parsed.values.owner;
  const needsTarget = (group === 'webhook' && (verb === 'crc' || verb === 'delete')) || (group === 'subscription' && ['add', 'check', 'remove'].includes(verb ?? ''));
  if (needsTarget && (!target || !ACCOUNT_ID.test(target))) return { problem: `${group} ${verb} needs a numeric id` };
  if (owner !== undefined && !ACCOUNT_ID.test(owner)) return { problem: '--owner must be a numeric account id' };
  return { group, verb, target, owner };
}

/** `webhook check`: announces webhook.invalid through the outbox, and relays it now rather than on the running auth's next round. */
async function checkWebhooksNow(config: AuthConfig, db: AuthDatabase, webhooks: WebhookAdmin, logger: Logger): Promise<WebhookCheck> {
  const broker = new Broker({ url: config.AMQP_URL, name: 'auth-cli', logger, topology: config.BROKER_TOPOLOGY });
  const publisher = new Publisher(broker, SYSTEM_TOPOLOGY);
  const { relay, events } = db.announcements(publisher, logger);
  try {
    const found = await webhooks.checkInvalid(events);
    await relay.stop();
    return found;
  } finally {
    await publisher.close();
    await broker.close();
  }
}

/** `subscription add|check|remove <accountId>`, `subscription list|count`; resolves with the exit code. */
async function subscriptionCommand(verb: string, target: string | undefined, webhooks: WebhookAdmin, config: AuthConfig, print: (value: unknown) => void): Promise<number> {
  switch (verb) {
    case 'add':
      print({ accountId: target, subscribed: true, ...(await webhooks.subscribe(target!)) });
      return 0;
    case 'check': {
      const subscribed = await webhooks.isSubscribed(target!);
      print({ accountId: target, subscribed });
      return subscribed ? 0 : 1;
    }
    case 'remove': {
      const removed = await webhooks.unsubscribe(target!);
      print({ accountId: target, removed });
      return removed ? 0 : 1;
    }
    case 'list':
      print({ envName: config.SOCIAL_ENV_NAME, items: (await webhooks.listSubscriptions()).map((accountId) => ({ accountId })) });
      return 0;
    default: // count
      print(await webhooks.countSubscriptions());
      return 0;
  }
}

/** Runs one CLI command; resolves with the exit code. */
export async function runCli(argv: string[], config: AuthConfig, logger: Logger, io: CliIo): Promise<number> {
  if (argv[0] === 'credentials') return runCredentialsCli(argv.slice(1), config, logger, io);
  if (argv[0] === 'agents' || argv[0] === 'teams') return runAgentsCli(argv[0], argv.slice(1), config, logger, io);
  if (argv[0] === 'xaa') return runXaaCli(argv.slice(1), config, logger, io);
  const args = parseCliArgs(argv);
  if ('problem' in args) {
    io.err(`${args.problem}\n${USAGE}`);
    return 2;
  }
  const { group, verb, target, owner } = args;

  registerConfigSecrets(config);
  const db = await AuthDatabase.open(config, logger, { migrationsDir: MIGRATIONS_DIR, applicationName: 'auth-cli', max: 2 });
  const { platform, accounts, registrations } = platformParts(config, db, logger);
  const webhooks = new WebhookAdmin({ platform, accounts, registrations, logger }, { envName: config.SOCIAL_ENV_NAME, publicWebhookUrl: config.PUBLIC_WEBHOOK_URL, ownerAccountId: config.SOCIAL_APP_OWNER_ACCOUNT_ID, allowLocalWebhookUrl: config.WEBHOOK_URL_LOCAL_ALLOWED });
  const print = (value: unknown) => io.out(JSON.stringify(value, null, 2));

  try {
    const command = `${group ?? ''} ${verb ?? ''}`.trim();
    switch (command) {
      case 'webhook register':
        print(await webhooks.register(owner));
        return 0;
      case 'webhook list':
        print({ envName: config.SOCIAL_ENV_NAME, items: await webhooks.list() });
        return 0;
      case 'webhook crc': {
        const result = await webhooks.recheck(target!, owner);
        print(result);
        return result.valid ? 0 : 1;
      }
      case 'webhook delete':
        await webhooks.remove(target!, owner);
        print({ deleted: target });
        return 0;
      case 'webhook check':
        print(await checkWebhooksNow(config, db, webhooks, logger)); // only this command needs the broker
        return 0;
      case 'subscription add':
      case 'subscription check':
      case 'subscription remove':
      case 'subscription list':
      case 'subscription count':
        return await subscriptionCommand(verb!, target, webhooks, config, print);
      case 'rotate-key':
        print({ resealed: await db.rotateCredentialsKey() });
        return 0;
      default:
        io.err(USAGE);
        return 2;
    }
  } catch (error) {
    io.err(`${(error as Error).name}: ${(error as Error).message}`);
    return 1;
  } finally {
    await db.end();
  }
}
