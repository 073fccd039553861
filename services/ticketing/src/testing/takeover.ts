import { performance } from 'node:perf_hooks';
import { freshDatabase, freshVirtualHost, testLogger, testPool, waitFor } from '@crm/testing';
import { startTicketing, type RunningTicketing } from '../service';
import { apiClient, TestPublisher, testConfig } from './harness';

/**
 * DM number `round` of customer `index` to `account`; event ids increase with the round, so
 * they give each account's order. Pass the social platform simulator's directMessageReceived.
 */
export function dmOf(directMessageReceived: (input: { account: string; customer: { id: string; screenName: string; name: string }; text: string; eventId: string; createdAt: number }) => object): DeliveryOf {
  return (account, index, round) =>
    directMessageReceived({
      account,
      customer: { id: `88${String(index).padStart(8, '0')}`, screenName: `c${index}`, name: `Customer ${index}` },
      text: `message ${round}`,
      eventId: `${account}${String(round).padStart(6, '0')}`,
      createdAt: Date.parse('2026-09-01T10:00:00Z') + round * 1000,
    });
}

/**
 * Two ticketing replicas on the activity partitions of a virtual host of their own; one is
 * killed (its broker connection cut, no reconnect) while deliveries for many accounts flow.
 * What `pnpm bench:takeover` prints and replicas-takeover.test.ts checks.
 */
export interface TakeoverResult {
  published: number;
  /** Deliveries recorded (one activity each), and recorded more than once. */
  recorded: number;
  doubled: number;
  /** Pairs of one account's deliveries recorded in a transaction earlier than the one before them. */
  outOfOrder: number;
  /** Deliveries each replica handled before the kill (both > 0: they shared the partitions). */
  handledBeforeKill: [number, number];
  /** From the kill to the survivor's first handling of an account the killed one had. */
  takeoverMs: number;
}

interface Handling {
  replica: 0 | 1;
  envelopeId: string;
  at: number;
}

const accountOf = (index: number) => `77${String(index).padStart(8, '0')}`;

// Prefetch 1: a replica records an account's deliveries one after the other, in the order its partition gives them
// (with more, it records a batch concurrently, which the results do not depend on: ticketing's README).
async function startReplica(index: 0 | 1, urls: { amqp: string; db: string }, handlings: Handling[]): Promise<RunningTicketing> {
  const note = (envelopeId: string) => handlings.push({ replica: index, envelopeId, at: performance.now() });
  const config = testConfig({ AMQP_URL: urls.amqp, DATABASE_URL: urls.db, ACTIVITY_BALANCE_INTERVAL_MS: 200, ACTIVITY_PREFETCH: 1, LOG_LEVEL: 'warn' });
  return startTicketing(config, { logger: testLogger(`ticketing-takeover-${index}`), host: '127.0.0.1', onHandled: note });
}

/** Cuts the replica's broker connection as a crash would (the socket dropped), and keeps it from reconnecting. */
function kill(replica: RunningTicketing): void {
  const live = (replica.broker.connection as unknown as { connection?: { connection?: { stream?: { destroy: () => void } } } }).connection;
  void replica.broker.connection.close().catch(() => undefined);
  live?.connection?.stream?.destroy();
}

/** The platform's delivery of DM number `round` from customer `index` to `account` (the simulator's, given by the caller). */
export type DeliveryOf = (account: string, index: number, round: number) => object;

export async function runTakeover(options: { accounts: number; perAccount: number; deliveryOf: DeliveryOf }): Promise<TakeoverResult> {
  const [vhost, db] = await Promise.all([freshVirtualHost('takeover'), freshDatabase('takeover')]);
  const handlings: Handling[] = [];
  const replicas: RunningTicketing[] = [];
  const publisher = new TestPublisher(vhost.url);
  try {
    replicas.push(await startReplica(0, { amqp: vhost.url, db: db.url }, handlings));
    replicas.push(await startReplica(1, { amqp: vhost.url, db: db.url }, handlings));
    await publisher.ready();
    const api = apiClient(() => `http://127.0.0.1:${replicas[1]!.port}`);
    const accounts = Array.from({ length: options.accounts }, (_, index) => accountOf(index));
    for (const account of accounts) await api.put(`/v1/partner-configs/${account}`, {});
    const envelopeAccount = new Map<string, string>();
    let sent = 0;
    const publishRound = async () => {
      const round = sent;
      sent += 1;
      await Promise.all(
        accounts.map(async (account, index) => {
          envelopeAccount.set(await publisher.delivery(options.deliveryOf(account, index, round)), account);
        }),
      );
    };
    const handledBy = (replica: 0 | 1) => handlings.filter((handling) => handling.replica === replica).length;
    // Until both replicas hold partitions: the first came first and held all; its balance hands the excess over.
    while (sent < options.perAccount / 2 || handledBy(0) === 0 || handledBy(1) === 0) {
      await publishRound();
      await waitFor(() => new Set(handlings.map((handling) => handling.envelopeId)).size >= envelopeAccount.size, { what: `round ${sent} handled`, timeoutMs: 60_000 });
      if (sent > options.perAccount) throw new Error(`the replicas did not share the partitions within ${sent} rounds`);
    }
    const handledBeforeKill: [number, number] = [handledBy(0), handledBy(1)];
    const accountsOfKilled = new Set(handlings.filter((handling) => handling.replica === 0).map((handling) => envelopeAccount.get(handling.envelopeId)));
    const killedAt = performance.now();
    kill(replicas[0]!);
    while (sent < options.perAccount) await publishRound();
    const survivorTook = await waitFor(
      () => handlings.find((handling) => handling.replica === 1 && handling.at > killedAt && accountsOfKilled.has(envelopeAccount.get(handling.envelopeId))),
      { what: "the survivor handling a killed replica's account", timeoutMs: 60_000 },
    );
    const figures = await recordedFigures(db.url, accounts, sent);
    return { published: accounts.length * sent, ...figures, handledBeforeKill, takeoverMs: Math.round(survivorTook!.at - killedAt) };
  } finally {
    await publisher.close();
    for (const replica of replicas) await replica.stop().catch(() => undefined);
    await Promise.all([db.drop(), vhost.drop()]);
  }
}

/** Waits until every delivery is recorded, then counts doubles and order breaks per account. */
async function recordedFigures(dbUrl: string, accounts: string[], perAccount: number) {
  const pool = testPool(dbUrl);
  try {
    const expected = accounts.length * perAccount;
    const count = async () => (await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM activities WHERE account_id = ANY($1)', [accounts])).rows[0]!.n;
    await waitFor(async () => (await count()) >= expected, { what: `${expected} deliveries recorded`, timeoutMs: 120_000 });
    const distinct = await pool.query<{ n: number }>('SELECT count(DISTINCT (account_id, platform_event_id))::int AS n FROM activities WHERE account_id = ANY($1)', [accounts]);
    // One account's events carry increasing ids; a later one recorded by an earlier transaction breaks its order.
    const broken = await pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM (
         SELECT created_at, lag(created_at) OVER (PARTITION BY account_id ORDER BY platform_event_id) AS previous
           FROM activities WHERE account_id = ANY($1)) ordered
        WHERE created_at < previous`,
      [accounts],
    );
    const recorded = await count();
    return { recorded: distinct.rows[0]!.n, doubled: recorded - distinct.rows[0]!.n, outOfOrder: broken.rows[0]!.n };
  }  finally {
    await pool.end();
  }
}
