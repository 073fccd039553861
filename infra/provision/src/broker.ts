import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import amqplib from 'amqplib';
import { DEFAULT_RETRY, Exchanges, Queues, SYSTEM_TOPOLOGY } from '@crm/contracts';
import { brokerUser, declareRetryQueues, declareTopology } from '@crm/messaging';
import { permissionsOf, SERVICES, type ServiceName } from './access';

const run = promisify(execFile);

/** How to run rabbitmqctl: RABBITMQCTL (e.g. `docker compose exec -T rabbitmq rabbitmqctl`), else the local one. */
export function rabbitmqctl(args: string[], command = process.env.RABBITMQCTL ?? 'rabbitmqctl') {
  const [program, ...prefix] = command.split(' ').filter(Boolean);
  return run(program ?? 'rabbitmqctl', [...prefix, ...args]);
}

/** RabbitMQ's default password hash (rabbit_password_hashing_sha256): base64(salt + sha256(salt + password)). */
export function passwordHash(password: string): string {
  const salt = randomBytes(4);
  return Buffer.concat([salt, createHash('sha256').update(Buffer.concat([salt, Buffer.from(password, 'utf8')])).digest()]).toString('base64');
}

export interface BrokerUser {
  service: ServiceName;
  name: string;
  password: string;
}

/**
 * Definitions for `rabbitmqctl import_definitions`: the vhost, the users and their permissions on
 * it. The admin gets full rights on a vhost it creates; the default vhost's are left as they are.
 */
export function brokerDefinitions(vhost: string, users: BrokerUser[], admin: string) {
  const adminPermissions = vhost === '/' ? [] : [{ user: admin, vhost, configure: '.*', write: '.*', read: '.*' }];
  return {
    vhosts: [{ name: vhost }],
    users: users.map((user) => ({ name: user.name, password_hash: passwordHash(user.password), hashing_algorithm: 'rabbit_password_hashing_sha256', tags: [] })),
    permissions: [...adminPermissions, ...users.map((user) => ({ user: user.name, vhost, ...permissionsOf(user.service) }))],
  };
}

/** Creates (or updates: passwords, permissions) every service's broker user in one import; the vhost too when missing. */
export async function importBrokerUsers(adminUrl: string, users: BrokerUser[]): Promise<void> {
  // rabbitmqctl may run as another system user: the file must be readable by it; it holds only salted hashes.
  const file = join(tmpdir(), `crm-provision-${randomBytes(8).toString('hex')}.json`);
  await writeFile(file, JSON.stringify(brokerDefinitions(vhostOf(adminUrl), users, brokerUser(adminUrl))), { mode: 0o644 });
  try {
    await rabbitmqctl(['import_definitions', file]);
  } finally {
    await unlink(file).catch(() => undefined);
  }
}

/** Declares the whole topology, every work queue's retry queues and requeue exchange included, as the admin. */
export async function declareAll(adminUrl: string): Promise<void> {
  const connection = await amqplib.connect(adminUrl);
  connection.on('error', () => undefined); // a lost connection fails the declarations below
  try {
    const channel = await connection.createChannel();
    await declareTopology(channel, SYSTEM_TOPOLOGY);
    for (const queue of SYSTEM_TOPOLOGY.queues) {
      if (queue.kind === 'work') await declareRetryQueues(channel, queue.name, queue.retry ?? DEFAULT_RETRY);
    }
    await channel.close();
    await unbindRetiredActivityQueue(connection);
  } finally {
    await connection.close();
  }
}

/**
 * The one activity queue from before the partitions, on a broker provisioned then: unbound from
 * `social.activity`, so only the partitions get new deliveries; ticketing drains what it holds.
 */
async function unbindRetiredActivityQueue(connection: amqplib.ChannelModel): Promise<void> {
  const channel = await connection.createChannel();
  // A missing queue closes the channel that asked: nothing to unbind.
  channel.on('error', () => undefined);
  const exists = await channel.checkQueue(Queues.ticketingActivity).then(
    () => true,
    () => false,
  );
  if (!exists) return;
  await channel.unbindQueue(Queues.ticketingActivity, Exchanges.socialActivity, '#');
  await channel.close();
}

/** The vhost named by an AMQP URL's path ('/' when none). */
export function vhostOf(url: string): string {
  const path = new URL(url).pathname;
  return path.length > 1 ? decodeURIComponent(path.slice(1)) : '/';
}

/** The URL a service's user connects with: the admin URL's host and vhost, the user's credentials. */
export function userUrl(adminUrl: string, user: BrokerUser): string {
  const url = new URL(adminUrl);
  url.username = encodeURIComponent(user.name);
  url.password = encodeURIComponent(user.password);
  return url.toString();
}

export const brokerUserName = (prefix: string, service: ServiceName) => `${prefix}${service}`;

export async function deleteBrokerUsers(prefix: string): Promise<void> {
  for (const service of SERVICES) await rabbitmqctl(['delete_user', brokerUserName(prefix, service)]).catch(() => undefined);
}
