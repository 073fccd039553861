/**
 * `pnpm chaos`: on the machine's own RabbitMQ and PostgreSQL (a virtual host and databases of
 * its own), signed DM deliveries to webhook-ingest while each service is killed with SIGKILL and
 * restarted, and RabbitMQ and PostgreSQL restart; then counts what ticketing recorded.
 * It restarts the machine's RabbitMQ and PostgreSQL (not with --no-server-restarts): run it on a
 * machine of your own.
 */
import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { promisify } from 'node:util';
import { ACTIVITY_PARTITION_QUEUES } from '@crm/contracts';
import { LOCAL_DEV } from '@crm/config';
import amqplib from 'amqplib';
import { freePort, freshDatabase, freshVirtualHost, testPool, type TestDatabase, type TestVirtualHost } from '@crm/testing';
import { closingLine, type FaultWindow } from './figures';
import { kill, running, start, urlOf, waitReady, type Replica } from './replicas';
import { plannedConversations, recordedFigures, sendAll, settle, sleep, type Conversation } from './traffic';

const run = promisify(execFile);
const ACCOUNT = { id: '7000000001', screenName: 'chaos_support' };
const ENV_NAME = 'chaos';

export interface SingleNodeOptions {
  deliveries: number;
  senders: number;
  intervalMs: number;
  serverRestarts: boolean;
}

/** One disruption after another, round robin, until stopped. */
function disruptions(services: Replica[], options: SingleNodeOptions) {
  const windows: FaultWindow[] = [];
  const postgresVersion = readdirSync('/etc/postgresql')[0];
  const actions: [string, () => Promise<void>][] = [
    ...services.map((service): [string, () => Promise<void>] => [`kill ${service.name}`, async () => {
      await kill(service);
      await sleep(300);
      start(service);
    }]),
    ...(options.serverRestarts
      ? ([
          ['restart RabbitMQ', async () => {
            await run('rabbitmqctl', ['stop_app']);
            await sleep(1500);
            await run('rabbitmqctl', ['start_app']);
          }],
          ['restart PostgreSQL', async () => void (await run('pg_ctlcluster', ['--skip-systemctl-redirect', postgresVersion!, 'main', 'restart', '-m', 'fast']))],
        ] as [string, () => Promise<void>][])
      : []),
  ];
  let stopped = false;
  const loop = (async () => {
    for (let i = 0; !stopped; i += 1) {
      await sleep(options.intervalMs);
      if (stopped) break;
      const [name, act] = actions[i % actions.length]!;
      const startedAt = Date.now();
      await act().catch((error: Error) => console.error(`  ${name} failed: ${error.message}`));
      windows.push({ name, startedAt, endedAt: Date.now() });
    }
  })();
  return { windows, kinds: actions.length, stop: async () => { stopped = true; await loop; } };
}

/** Messages left in the dead-letter queues of ticketing's activity partitions on the run's virtual host. */
async function deadLetters(url: string): Promise<number> {
  const connection = await amqplib.connect(url);
  try {
    const channel = await connection.createChannel();
    let count = 0;
    for (const queue of ACTIVITY_PARTITION_QUEUES) count += (await channel.checkQueue(`${queue}.dlq`)).messageCount;
    return count;
  } finally {
    await connection.close();
  }
}

export async function singleNodeRun(options: SingleNodeOptions): Promise<number> {
  const vhost: TestVirtualHost = await freshVirtualHost('chaos');
  const databases: TestDatabase[] = await Promise.all(['chaos_auth', 'chaos_ticketing'].map((name) => freshDatabase(name)));
  const [authDb, ticketingDb] = databases as [TestDatabase, TestDatabase];
  const [authPort, ticketingPort, ingestPort] = [await freePort(), await freePort(), await freePort()];
  const common = { AMQP_URL: vhost.url, SOCIAL_ENV_NAME: ENV_NAME };
  const services: Replica[] = [
    { name: 'auth', dir: 'services/auth', port: authPort, host: '127.0.0.1', env: { ...common, DATABASE_URL: authDb.url, WEBHOOK_CHECK_INTERVAL_MS: '0' } },
    { name: 'ticketing', dir: 'services/ticketing', port: ticketingPort, host: '127.0.0.1', env: { ...common, DATABASE_URL: ticketingDb.url } },
    { name: 'webhook-ingest', dir: 'services/webhook-ingest', port: ingestPort, host: '127.0.0.1', env: common },
  ];
  const pool = testPool(ticketingDb.url, { max: 2 }); // hears the ends of its connections when PostgreSQL restarts on purpose
  const started = Date.now();
  try {
    services.forEach(start);
    await Promise.all(services.map((service) => waitReady(service)));
    const configured = await fetch(`${urlOf(services[1]!)}/v1/partner-configs/${ACCOUNT.id}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${LOCAL_DEV.crmToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ pageName: 'Chaos Support' }),
    });
    if (!configured.ok) throw new Error(`configuring the account answered ${configured.status}`);

    const conversations: Conversation[] = Array.from({ length: options.senders }, (_, i) => ({ account: ACCOUNT, customer: { id: String(8_000_000_000 + i), screenName: `chaos_${i}` } }));
    const planned = plannedConversations(conversations, options.deliveries);
    console.log(`chaos: ${options.deliveries} DMs in ${options.senders} conversations, a disruption every ${options.intervalMs} ms`);
    const chaos = disruptions(services, options);
    // One round of every disruption (each takes up to about 2 s besides its interval) and one more interval, while deliveries arrive.
    const sent = await sendAll([`${urlOf(services[2]!)}/webhooks/${ENV_NAME}`], planned, (chaos.kinds + 1) * (options.intervalMs + 2000));
    await chaos.stop();
    for (const service of services) if (!running(service)) start(service);
    await Promise.all(services.map((service) => waitReady(service)));
    await settle(pool, [ACCOUNT.id], sent.accepted.size);
    const figures = await recordedFigures(pool, [ACCOUNT.id], sent.accepted);
    const kinds = new Set(chaos.windows.map(({ name }) => name));
    console.log(JSON.stringify({ accepted: sent.accepted.size, refused: sent.refused, recorded: figures.recorded, lost: figures.lost, doubled: figures.doubled, outOfOrder: figures.outOfOrder, deadLetters: await deadLetters(vhost.url), seconds: Math.round((Date.now() - started) / 1000) }));
    console.log(`disruptions: ${[...kinds].map((name) => `${name} x${chaos.windows.filter((d) => d.name === name).length}`).join(', ')}`);
    const missed = chaos.kinds - kinds.size;
    if (missed > 0) console.error(`${missed} kind(s) of disruption did not happen while deliveries arrived: a longer run (--deliveries) or a shorter --interval tests them`);
    console.log(closingLine({ accepted: sent.accepted.size, recorded: figures.recorded, lost: figures.lost, doubled: figures.doubled, outOfOrder: figures.outOfOrder, faults: chaos.windows.length }));
    return figures.lost > 0 || figures.doubled > 0 || figures.outOfOrder > 0 || missed > 0 ? 1 : 0;
  } finally {
    await Promise.all(services.map(kill));
    await pool.end();
    await Promise.all([...databases.map((db) => db.drop()), vhost.drop()]);
  }
}
