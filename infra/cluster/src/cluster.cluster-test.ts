/**
 * Against the cluster of `pnpm cluster up` (jest.cluster.config.cjs; CLUSTER_TESTS=1): what
 * the default suite cannot show on one PostgreSQL and one RabbitMQ.
 */
import { createPool, ensureDatabase } from '@crm/db';
import { Broker } from '@crm/messaging';
import { capturingLogger, waitFor } from '@crm/testing';
import { patroniMembers } from './postgres';
import { rabbitmqctl } from './rabbitmq';
import { clusterSettings } from './settings';

const settings = clusterSettings();

beforeAll(() => {
  if (process.env.CLUSTER_TESTS !== '1') throw new Error('these tests need the cluster: pnpm cluster up, then CLUSTER_TESTS=1');
});

/** The members' ports, the standby's first. */
async function standbyThenLeader(): Promise<{ standby: number; leader: number }> {
  const members = await patroniMembers(settings);
  const portOf = (role: string) => {
    const member = members.find((candidate) => (role === 'Leader' ? candidate.Role === 'Leader' : candidate.Role !== 'Leader'));
    if (!member) throw new Error(`no ${role} in ${JSON.stringify(members)}`);
    return settings.postgresMembers.find(({ name }) => name === member.Member)!.port;
  };
  return { standby: portOf('Replica'), leader: portOf('Leader') };
}

describe('a database URL naming the primary and its standby', () => {
  it('passes the standby over when it is named first, and writes on the primary', async () => {
    const { standby, leader } = await standbyThenLeader();
    const url = `postgres://postgres@127.0.0.1:${standby},127.0.0.1:${leader}/cluster_test?target_session_attrs=read-write`;
    await ensureDatabase(url);
    const pool = createPool(url, { max: 2 });
    try {
      const { rows } = await pool.query<{ port: number; standby: boolean }>('SELECT inet_server_port() AS port, pg_is_in_recovery() AS standby');
      expect(rows[0]).toEqual({ port: leader, standby: false });
      await pool.query('CREATE TABLE IF NOT EXISTS written (at timestamptz NOT NULL DEFAULT now())');
      await pool.query('INSERT INTO written DEFAULT VALUES');
    } finally {
      await pool.end();
    }
  });
});

describe('a broker URL naming the three nodes', () => {
  it('moves to the next node when the one it is connected to stops', async () => {
    const [first, second] = settings.rabbitNodes;
    const { logger, lines } = capturingLogger('cluster-test');
    const url = settings.rabbitNodes.map(({ amqpPort }) => `amqp://guest:guest@127.0.0.1:${amqpPort}`).join(',');
    const broker = new Broker({ url, name: 'cluster-test', logger, reconnectSeconds: 0.2 });
    try {
      await broker.waitUntilConnected();
      expect(lines.join('')).toContain(`"broker":"127.0.0.1:${first!.amqpPort}"`);
      await rabbitmqctl(settings, first!, 'stop_app');
      await waitFor(() => lines.join('').includes(`"broker":"127.0.0.1:${second!.amqpPort}"`) && broker.isConnected(), { timeoutMs: 30_000, what: 'a connection to the second node' });
    } finally {
      await broker.close();
      await rabbitmqctl(settings, first!, 'start_app');
    }
  });
});
