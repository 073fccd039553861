/** `cli credentials create|list|revoke`: the CRM's API credentials (see cli.ts). */
import { parseArgs } from 'node:util';
import { isScope } from '@crm/access';
import { SCOPES, TRACKING_CLIENT_ID_PATTERN, type Scope } from '@crm/contracts';
import { createPool, ensureDatabase, migrate, withTransaction, type Pool } from '@crm/db';
import type { Logger } from '@crm/logging';
import { ApiCredentialStore, type CredentialSpec } from './adapters/api-credentials';
import { AuthEvents } from './adapters/events';
import type { CliIo } from './cli-io';
import type { AuthConfig } from './config';
import { MIGRATIONS_DIR } from './service';

export const CREDENTIALS_USAGE = `       cli credentials create --name <name> --scopes ${SCOPES.join(',')} [--accounts <id,...>] [--tracking-clients <id,...>]
       cli credentials list
       cli credentials revoke <credentialId>`;

const ACCOUNT_ID = /^[0-9]{1,20}$/;
const CLIENT_ID = new RegExp(TRACKING_CLIENT_ID_PATTERN);
const CREDENTIAL_ID = /^[a-z0-9]{16}$/;

class UsageError extends Error {}

function listOption(value: string | undefined, what: string, pattern: RegExp): string[] | null {
  if (value === undefined) return null;
  const items = [...new Set(value.split(',').map((item) => item.trim()).filter(Boolean))];
  const bad = items.find((item) => !pattern.test(item));
  if (items.length === 0 || bad !== undefined) throw new UsageError(`--${what} must be a comma-separated list of ids${bad !== undefined ? `; '${bad}' is not one` : ''}`);
  return items;
}

/** The credential that `credentials create` describes, or a UsageError naming what is wrong. */
export function credentialSpec(values: { name?: string; scopes?: string; accounts?: string; 'tracking-clients'?: string }): CredentialSpec {
  const name = values.name?.trim();
  if (!name || name.length > 200) throw new UsageError('--name is required (1-200 characters)');
  const scopes = [...new Set((values.scopes ?? '').split(',').map((scope) => scope.trim()).filter(Boolean))];
  const unknown = scopes.filter((scope) => !isScope(scope));
  if (scopes.length === 0 || unknown.length > 0) throw new UsageError(`--scopes must name one or more of ${SCOPES.join(', ')}${unknown.length ? `; unknown: ${unknown.join(', ')}` : ''}`);
  return {
    name,
    scopes: scopes as Scope[],
    accountIds: listOption(values.accounts, 'accounts', ACCOUNT_ID),
    trackingClientIds: listOption(values['tracking-clients'], 'tracking-clients', CLIENT_ID),
  };
}

/**
 * Revokes a credential and, in the same transaction, puts its announcement in auth's outbox:
 * the running auth's relay publishes it on `access.events` (within OUTBOX_RELAY_INTERVAL_MS),
 * whichever broker the CLI could reach, so it is never lost. False when there is no such
 * credential or it was revoked already.
 */
function revokeAndAnnounce(pool: Pool, store: ApiCredentialStore, id: string): Promise<boolean> {
  // The CLI has no relay to kick: the running auth's relays on its own.
  const events = new AuthEvents(pool, { kick: async () => undefined });
  return withTransaction(pool, async (client) => {
    const revoked = await store.revoke(id, client);
    if (revoked) await events.credentialRevoked(client, { id });
    return revoked;
  });
}

interface RunContext {
  store: ApiCredentialStore;
  revoke: (id: string) => Promise<boolean>;
  print: (value: unknown) => void;
}

async function run({ store, revoke, print }: RunContext, verb: string | undefined, values: Record<string, string | undefined>, target: string | undefined): Promise<number> {
  switch (verb) {
    case 'create': {
      const { credential, token } = await store.create(credentialSpec(values));
      print({ ...credential, token, note: 'the token is shown only now; store it safely' });
      return 0;
    }
    case 'list':
      print({ items: await store.list() });
      return 0;
    case 'revoke': {
      if (!target || !CREDENTIAL_ID.test(target)) throw new UsageError('credentials revoke needs a credential id (16 letters and digits)');
      const revoked = await revoke(target);
      print({ id: target, revoked, ...(revoked ? { announcement: 'queued: auth announces it on access.events within OUTBOX_RELAY_INTERVAL_MS' } : {}) });
      return revoked ? 0 : 1;
    }
    default:
      throw new UsageError('credentials needs create, list or revoke');
  }
}

/** Runs `credentials <verb>`; resolves with the exit code (2 for a usage error). */
export async function runCredentialsCli(argv: string[], config: AuthConfig, logger: Logger, io: CliIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { name: { type: 'string' }, scopes: { type: 'string' }, accounts: { type: 'string' }, 'tracking-clients': { type: 'string' } },
    });
  } catch (error) {
    io.err(`${(error as Error).message}\n${CREDENTIALS_USAGE}`);
    return 2;
  }
  const [verb, target] = parsed.positionals;
  await ensureDatabase(config.DATABASE_URL);
  await migrate(config.DATABASE_URL, MIGRATIONS_DIR, logger);
  const pool = createPool(config.DATABASE_URL, { max: 1, applicationName: 'auth-cli' });
  try {
    const store = new ApiCredentialStore(pool);
    const context = { store, revoke: (id: string) => revokeAndAnnounce(pool, store, id), print: (value: unknown) => io.out(JSON.stringify(value, null, 2)) };
    return await run(context, verb, parsed.values, target);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.err(`${error.message}\n${CREDENTIALS_USAGE}`);
    return 2;
  } finally {
    await pool.end();
  }
}
