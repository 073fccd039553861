import { join } from 'node:path';

/** Where the cluster lives and which ports it takes: every value can be overridden by its env variable. */
export interface RabbitNode {
  /** crm-a@localhost, ... */
  name: string;
  amqpPort: number;
  distPort: number;
  managementPort: number;
}

export interface PostgresMember {
  /** pg1, pg2: Patroni's member names. */
  name: string;
  port: number;
  /** Patroni's REST API (its health checks). */
  restPort: number;
}

export interface ClusterSettings {
  dir: string;
  rabbitNodes: RabbitNode[];
  etcdClientPort: number;
  etcdPeerPort: number;
  postgresMembers: PostgresMember[];
  /** The folder of PostgreSQL's server programs (initdb, postgres, pg_ctl) Patroni runs. */
  postgresBin: string;
}

const NODE_LETTERS = ['a', 'b', 'c'];

function portSetting(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const given = env[name];
  if (given === undefined || given === '') return fallback;
  const value = Number(given);
  if (!Number.isInteger(value) || value < 1 || value > 65535) throw new Error(`${name} must be a port number (1-65535), got "${given}"`);
  return value;
}

/**
 * Each setting names the first of consecutive ports, one per node. The defaults are all below
 * 10,000, outside the ports test support hands out (libs/testing's freePort): CI brings the
 * cluster up while tests run beside it, and a test could otherwise be listening on a node's port.
 */
export function clusterSettings(env: NodeJS.ProcessEnv = process.env): ClusterSettings {
  const [amqp, dist, management] = [portSetting(env, 'CLUSTER_AMQP_PORT', 5681), portSetting(env, 'CLUSTER_DIST_PORT', 9691), portSetting(env, 'CLUSTER_MANAGEMENT_PORT', 9681)];
  const [postgres, patroni] = [portSetting(env, 'CLUSTER_PG_PORT', 5441), portSetting(env, 'CLUSTER_PATRONI_PORT', 8011)];
  const etcdClientPort = portSetting(env, 'CLUSTER_ETCD_PORT', 2389);
  return {
    dir: env.CLUSTER_DIR || '/tmp/crm-cluster',
    rabbitNodes: NODE_LETTERS.map((letter, index) => ({ name: `crm-${letter}@localhost`, amqpPort: amqp + index, distPort: dist + index, managementPort: management + index })),
    etcdClientPort,
    etcdPeerPort: etcdClientPort + 1,
    postgresMembers: [0, 1].map((index) => ({ name: `pg${index + 1}`, port: postgres + index, restPort: patroni + index })),
    postgresBin: env.CLUSTER_PG_BIN || '/usr/lib/postgresql/15/bin',
  };
}

export const rabbitDir = (settings: ClusterSettings) => join(settings.dir, 'rabbitmq');
export const postgresDir = (settings: ClusterSettings) => join(settings.dir, 'postgres');

/** The addresses a service is given: every broker node, both PostgreSQL servers (the primary is chosen at connect). */
export function clientUrls(settings: ClusterSettings, database = '<database>'): { amqp: string; database: string } {
  const hosts = settings.postgresMembers.map(({ port }) => `127.0.0.1:${port}`).join(',');
  return {
    amqp: settings.rabbitNodes.map(({ amqpPort }) => `amqp://guest:guest@127.0.0.1:${amqpPort}`).join(','),
    database: `postgres://postgres@${hosts}/${database}?target_session_attrs=read-write`,
  };
}
