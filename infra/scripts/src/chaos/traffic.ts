/**
 * The traffic of a chaos run: signed DM deliveries sent as the platform sends them (each
 * retried until answered 200, now and then the same one twice), one conversation's messages
 * one after the other, and what ticketing recorded of them.
 */
import { LOCAL_DEV } from '@crm/config';
import type pg from 'pg';
import { directMessageReceived, serializeLikePlatform } from '../../../simulators/social-platform/src/deliveries';
import { sign, SIGNATURE_HEADER } from '../../../../libs/webhook-signature/src';
import { outOfOrder, outOfOrderPairs, type Recorded, type Timed } from './figures';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface Customer {
  id: string;
  screenName: string;
}

/** One conversation: a customer writing to an account. */
export interface Conversation {
  account: { id: string; screenName: string };
  customer: Customer;
}

/** Event ids are this plus the run's start times 1,000 plus the message's number: what is above it is an exact number (under 2^53). */
const EVENT_ID_BASE = 9_000_000_000_000_000_000n;

export interface PlannedDelivery {
  eventId: string;
  body: Buffer;
  /** Sent a second time once accepted, as the platform sometimes does. */
  twice: boolean;
}

/** `deliveries` DMs over the conversations, round robin; each conversation's in order (increasing event ids); every 20th sent twice. */
export function plannedConversations(conversations: Conversation[], deliveries: number, startedAt = Date.now()): PlannedDelivery[][] {
  const planned: PlannedDelivery[][] = conversations.map(() => []);
  for (let i = 0; i < deliveries; i += 1) {
    const conversation = conversations[i % conversations.length]!;
    const eventId = String(EVENT_ID_BASE + BigInt(startedAt) * 1000n + BigInt(i));
    const body = serializeLikePlatform(directMessageReceived({ account: conversation.account, customer: conversation.customer, text: `message ${i}`, eventId, createdAt: startedAt + i }));
    planned[i % conversations.length]!.push({ eventId, body, twice: i % 20 === 0 });
  }
  return planned;
}

/**
 * Sends one delivery until a webhook-ingest answers 200, at most `attempts` times, trying the
 * addresses in turn (a load balancer in front of the replicas); answers when it was accepted.
 */
async function deliver(urls: string[], body: Buffer, attempts = 120): Promise<number | null> {
  const signature = sign(LOCAL_DEV.consumerSecret, body);
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    const url = urls[attempt % urls.length]!;
    const status = await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signature }, signal: AbortSignal.timeout(5_000) }).then(
      (res) => res.status,
      () => 0,
    );
    if (status === 200) return Date.now();
    if (attempt % urls.length === urls.length - 1) await sleep(Math.min(2_000, 100 * (attempt + 1)));
  }
  return null;
}

export interface Sent {
  /** Event id -> when it was first accepted. */
  accepted: Map<string, number>;
  refused: number;
}

/**
 * Every conversation sends its deliveries one after the other (the next once the previous was
 * accepted), all conversations at once, delivery n of a conversation not before its share of
 * `spreadOverMs`: so the faults meet traffic however fast it is recorded.
 */
export async function sendAll(urls: string[], planned: PlannedDelivery[][], spreadOverMs: number): Promise<Sent> {
  const accepted = new Map<string, number>();
  let refused = 0;
  const started = Date.now();
  await Promise.all(
    planned.map(async (deliveries) => {
      for (const [n, delivery] of deliveries.entries()) {
        const due = started + (spreadOverMs * n) / deliveries.length;
        if (due > Date.now()) await sleep(due - Date.now());
        const at = await deliver(urls, delivery.body);
        if (at === null) {
          refused += 1;
          continue;
        }
        accepted.set(delivery.eventId, at);
        if (delivery.twice) await deliver(urls, delivery.body);
      }
    }),
  );
  return { accepted, refused };
}

/**
 * Until ticketing has recorded `expected` of the accounts' events, or recorded none more for
 * `stalledMs`: a backlog is waited for as long as it shrinks, and what is missing after that is lost.
 */
export async function settle(db: pg.Pool, accounts: string[], expected: number, stalledMs = 60_000): Promise<void> {
  let last = -1;
  let progressAt = Date.now();
  while (Date.now() - progressAt < stalledMs) {
    const count = await db
      .query<{ n: number }>(`SELECT count(DISTINCT platform_event_id)::int AS n FROM activities WHERE account_id = ANY($1) AND direction = 'inbound'`, [accounts])
      .then((r) => r.rows[0]!.n, () => -1);
    if (count >= expected) return;
    if (count > last) {
      last = count;
      progressAt = Date.now();
    }
    await sleep(1_000);
  }
}

/**
 * What ticketing holds of the accepted deliveries: lost (no activity), doubled (an event recorded
 * twice, or a conversation with two tickets), out of order (a message committed before the one
 * its sender sent before it), and each recorded delivery's commit time: the commit timestamp
 * where the server tracks it (track_commit_timestamp), else its transaction's start.
 */
export async function recordedFigures(db: pg.Pool, accounts: string[], accepted: Map<string, number>) {
  const tracked = (await db.query<{ on: string }>(`SELECT current_setting('track_commit_timestamp') AS on`)).rows[0]!.on === 'on';
  const { rows } = await db.query<{ platform_event_id: string; conversation: string; committed_at: Date }>(
    `SELECT platform_event_id, account_id || '/' || author_contact_id AS conversation, ${tracked ? 'coalesce(pg_xact_commit_timestamp(xmin), created_at)' : 'created_at'} AS committed_at
       FROM activities WHERE account_id = ANY($1) AND direction = 'inbound'`,
    [accounts],
  );
  const seen = new Map<string, (typeof rows)[number]>();
  let doubledActivities = 0;
  for (const row of rows) {
    if (seen.has(row.platform_event_id)) doubledActivities += 1;
    else seen.set(row.platform_event_id, row);
  }
  const tickets = await db.query(`SELECT 1 FROM tickets WHERE account_id = ANY($1) GROUP BY account_id, conversation_key HAVING count(*) > 1`, [accounts]);
  const timed: Timed[] = [];
  const ordered: Recorded[] = [];
  for (const [eventId, acceptedAt] of accepted) {
    const row = seen.get(eventId);
    if (!row) continue;
    timed.push({ acceptedAt, committedAt: row.committed_at.getTime() });
    ordered.push({ conversation: row.conversation, position: Number(BigInt(eventId) - EVENT_ID_BASE), recordedAt: row.committed_at.getTime() });
  }
  return {
    recorded: seen.size,
    lost: [...accepted.keys()].filter((id) => !seen.has(id)).length,
    lostIds: [...accepted.keys()].filter((id) => !seen.has(id)),
    doubled: doubledActivities + (tickets.rowCount ?? 0),
    outOfOrder: outOfOrder(ordered),
    outOfOrderPairs: outOfOrderPairs(ordered),
    timed,
    commitTimestamps: tracked,
  };
}
