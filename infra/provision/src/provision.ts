import { randomBytes } from 'node:crypto';
import { APPEND_ONLY_TABLES, DATABASE_SERVICES, SERVICES, type DatabaseServiceName, type ServiceName } from './access';
import { brokerUserName, declareAll, importBrokerUsers, userUrl, type BrokerUser } from './broker';
import { provisionDatabase, roleUrl, type DatabaseRoles } from './database';

export { APPEND_ONLY_TABLES, BROKER_ACCESS, DATABASE_SERVICES, SERVICES, permissionsOf, type ServiceName } from './access';
export { deleteBrokerUsers, rabbitmqctl } from './broker';
export { dropDatabaseRoles, type DatabaseRoles } from './database';

export interface ProvisionOptions {
  /** An admin user's URL on the vhost to provision (it is created when missing). */
  amqpAdminUrl: string;
  /** A superuser's URL on the PostgreSQL server (any database). */
  databaseAdminUrl: string;
  /** Prefix of the broker user names (`<prefix><service>`). */
  brokerUserPrefix: string;
  /** Prefix of the PostgreSQL roles (`<prefix><service>_migrator`, `<prefix><service>_app`). */
  rolePrefix: string;
  /** Each service's database name (default: the service's name). */
  databases?: Partial<Record<DatabaseServiceName, string>>;
  /** Passwords known already (kept from a previous run, or given); missing ones are generated. */
  passwords?: Record<string, string>;
  /** Told after each step (a run takes some seconds: rabbitmqctl, the topology, each database). */
  onStep?: (done: string) => void;
}

/** What each service connects with. */
export interface ServiceCredentials {
  AMQP_URL: string;
  BROKER_USER: string;
  DATABASE_URL?: string;
  DATABASE_MIGRATION_URL?: string;
}

export interface Provisioned {
  services: Record<ServiceName, ServiceCredentials>;
  /** Every password by its user or role name: keep them to provision again with the same ones. */
  passwords: Record<string, string>;
}

const snake = (service: string) => service.replace(/-/g, '_');

export function databaseRolesOf(options: ProvisionOptions, service: DatabaseServiceName, password: (name: string) => string): DatabaseRoles {
  const base = `${options.rolePrefix}${snake(service)}`;
  return {
    database: options.databases?.[service] ?? snake(service),
    migrator: { name: `${base}_migrator`, password: password(`${base}_migrator`) },
    app: { name: `${base}_app`, password: password(`${base}_app`) },
    appendOnly: APPEND_ONLY_TABLES[service],
  };
}

/**
 * Provisions a vhost and a database server (idempotent): one broker user per service with the
 * permissions of access.ts, the whole topology (declared by the admin, so no service needs
 * `configure`), and per service with a database a migrator role owning it and an app role.
 */
export async function provision(options: ProvisionOptions): Promise<Provisioned> {
  const passwords: Record<string, string> = { ...options.passwords };
  const password = (name: string) => (passwords[name] ??= randomBytes(24).toString('base64url'));
  const users: BrokerUser[] = SERVICES.map((service) => {
    const name = brokerUserName(options.brokerUserPrefix, service);
    return { service, name, password: password(name) };
  });
  const step = options.onStep ?? (() => undefined);
  await importBrokerUsers(options.amqpAdminUrl, users);
  step(`broker users ${users.map((user) => user.name).join(', ')} with their permissions`);
  await declareAll(options.amqpAdminUrl);
  step('exchanges and queues declared');
  const services = Object.fromEntries(users.map((user) => [user.service, { AMQP_URL: userUrl(options.amqpAdminUrl, user), BROKER_USER: user.name }])) as Record<ServiceName, ServiceCredentials>;
  for (const service of DATABASE_SERVICES) {
    const roles = databaseRolesOf(options, service, password);
    await provisionDatabase(options.databaseAdminUrl, roles);
    step(`database ${roles.database} with roles ${roles.migrator.name} and ${roles.app.name}`);
    services[service].DATABASE_URL = roleUrl(options.databaseAdminUrl, roles.app, roles.database);
    services[service].DATABASE_MIGRATION_URL = roleUrl(options.databaseAdminUrl, roles.migrator, roles.database);
  }
  return { services, passwords };
}
