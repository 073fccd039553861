import { createPool, ensureDatabase, isReachable, migrate, type Pool } from '@crm/db';
import type { Logger } from '@crm/logging';
import type { OutboxRelay, Publisher } from '@crm/messaging';
import { OutboxRelay as Relay } from '@crm/messaging';
import type { AuthConfig } from '../config';
import { AccountStore } from './accounts';
import { AgentStore } from './agents';
import { ApiCredentialStore } from './api-credentials';
import { AppCredentialsStore } from './app-credentials';
import { AppCreditStore } from './app-credit';
import { CommandStore } from './commands';
import { ConnectionRequests } from './connection-requests';
import { AuthEvents } from './events';
import { rotateCredentialsKey } from './key-rotation';
import { Keyring } from './keyring';
import { SessionStore } from './sessions';
import { UsageStore } from './usage-store';
import { WebhookRegistrations } from './webhook-registrations';
import { XaaStore } from './xaa-store';

/**
 * auth's database, migrated when opened, and the stores bound to its pool: the one place
 * that hands the pool around, so use cases only ever see stores.
 */
export class AuthDatabase {
  readonly keys: Keyring;
  readonly accounts: AccountStore;
  readonly appCredentials: AppCredentialsStore;
  readonly registrations: WebhookRegistrations;
  readonly connectionRequests: ConnectionRequests;
  readonly commands: CommandStore;
  readonly apiCredentials: ApiCredentialStore;
  readonly sessions: SessionStore;
  readonly agents: AgentStore;
  readonly xaa: XaaStore;
  readonly usage: UsageStore;
  readonly credit: AppCreditStore;

  private constructor(
    readonly pool: Pool,
    config: AuthConfig,
  ) {
    this.keys = new Keyring(config.CREDENTIALS_KEY, config.CREDENTIALS_KEY_PREVIOUS);
    this.accounts = new AccountStore(pool, this.keys);
    this.appCredentials = new AppCredentialsStore(pool, this.keys);
    this.registrations = new WebhookRegistrations(pool);
    this.connectionRequests = new ConnectionRequests(pool, this.keys);
    this.commands = new CommandStore(pool);
    this.apiCredentials = new ApiCredentialStore(pool);
    this.sessions = new SessionStore(pool);
    this.agents = new AgentStore(pool);
    this.xaa = new XaaStore(pool, config.SOCIAL_ENV_NAME);
    this.usage = new UsageStore(pool);
    this.credit = new AppCreditStore(pool);
  }

  /** Creates the database when missing, migrates it as the migration role, and opens a pool as the service's role. */
  static async open(config: AuthConfig, logger: Logger, options: { migrationsDir: string; applicationName: string; max?: number }): Promise<AuthDatabase> {
    const migrationUrl = config.DATABASE_MIGRATION_URL ?? config.DATABASE_URL;
    await ensureDatabase(migrationUrl);
    await migrate(migrationUrl, options.migrationsDir, logger);
    const opened = createPool(config.DATABASE_URL, {
      applicationName: options.applicationName,
      max: options.max,
      onIdleError: (error) => logger.warn('idle database connection failed', { reason: error.message }),
    });
    return new AuthDatabase(opened, config);
  }

  /** The outbox relay publishing what auth's transactions enqueued, and the announcements that enqueue into it. */
  announcements(publisher: Publisher, logger: Logger): { relay: OutboxRelay; events: AuthEvents } {
    const relay = new Relay({ pool: this.pool, publisher, logger });
    return { relay, events: new AuthEvents(this.pool, relay) };
  }

  rotateCredentialsKey(): Promise<Record<string, number>> {
    return rotateCredentialsKey(this.pool, this.keys);
  }

  isReachable(): Promise<boolean> {
    return isReachable(this.pool);
  }

  end(): Promise<void> {
    return this.pool.end();
  }
}
