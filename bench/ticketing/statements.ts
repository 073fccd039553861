/**
 * Statements per delivery: records prefetch windows of ACTIVITY_PREFETCH single-DM deliveries
 * (from BENCH_CUSTOMERS customers, as bench.ts sends them) through the recording use case, as
 * the activity consumer does, against a fresh database, with every statement counted on its way
 * to PostgreSQL. Two phases: each customer's first DM (it opens a ticket), then BENCH_WINDOWS
 * windows of DMs joining the open tickets (the common case). Prints statements per delivery of
 * each, and the statements by their text with STATEMENTS_DETAIL=1.
 *
 *   pnpm bench:ticketing:statements     (tsx bench/ticketing/statements.ts)
 */
import { RawActivity } from '../../libs/contracts/src';
import { makeEnvelope } from '../../libs/messaging/src';
import { freshDatabase } from '@crm/testing';
import { createPool, migrate } from '../../libs/db/src';
import { createLogger } from '../../libs/logging/src';
import { directMessageReceived } from '../../infra/simulators/social-platform/src/deliveries';
import { TicketingStore } from '../../services/ticketing/src/adapters/db/store';
import { interpretActivity } from '../../services/ticketing/src/domain/activity';
import { recordDeliveries } from '../../services/ticketing/src/operations/record-delivery';
import { savePartnerConfig } from '../../services/ticketing/src/operations/save-partner-config';
import { HeldRelease } from '../../services/ticketing/src/operations/release-held';
import { MIGRATIONS_DIR } from '../../services/ticketing/src/service';
import { rawActivity } from '../../services/ticketing/src/testing/deliveries';

const windows = Number(process.env.BENCH_WINDOWS ?? 100);
const prefetch = Number(process.env.ACTIVITY_PREFETCH ?? 10);
const customers = Number(process.env.BENCH_CUSTOMERS ?? 500);
const ACCOUNT = '4400000001';
const logger = createLogger('bench-statements', process.env.LOG_LEVEL ?? 'warn');

interface Tally {
  count: number;
  ms: number;
}

/** Counts every query a client of the pool sends, by its text, with the time until its answer. */
function counting(pool: ReturnType<typeof createPool>): Map<string, Tally> {
  const counts = new Map<string, Tally>();
  const note = (query: unknown, ms: number) => {
    const text = typeof query === 'string' ? query : ((query as { text?: string }).text ?? '?');
    const key = text.replace(/\s+/g, ' ').trim().slice(0, 100);
    const tally = counts.get(key) ?? { count: 0, ms: 0 };
    counts.set(key, { count: tally.count + 1, ms: tally.ms + ms });
  };
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = async (...args: unknown[]) => {
      const started = performance.now();
      try {
        return await query(...args);
      } finally {
        note(args[0], performance.now() - started);
      }
    };
  });
  return counts;
}

async function main(): Promise<void> {
  const db = await freshDatabase('bench_statements');
  try {
    await migrate(db.url, MIGRATIONS_DIR, logger);
    const pool = createPool(db.url, { max: 4, applicationName: 'bench-statements' });
    const store = new TicketingStore(pool);
    await savePartnerConfig({ store, logger, defaults: { queue: 'social', folder: 'inbox', firstResponseMinutes: 60, resolutionMinutes: 1440 }, heldRelease: new HeldRelease({ store, logger }) }, ACCOUNT, { pageName: 'Bench' });
    const counts = counting(pool);
    let sent = 0;
    const phase = async (name: string, windowCount: number) => {
      counts.clear();
      const first = sent;
      const started = process.hrtime.bigint();
      for (let w = 0; w < windowCount; w += 1) {
        const batch = Array.from({ length: prefetch }, () => {
          sent += 1;
          const customer = { id: String(5_000_000 + (sent % customers)), screenName: `c${sent % customers}`, name: 'Customer' };
          const payload = rawActivity(directMessageReceived({ account: ACCOUNT, customer, text: `message ${sent}`, eventId: String(1_800_000_000_000_000_000n + BigInt(sent)) }));
          return { envelope: makeEnvelope(RawActivity, 'webhook-ingest', payload), interpretation: interpretActivity(payload) };
        });
        await recordDeliveries(store, batch, { logRaw: true });
      }
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const statements = [...counts.values()].reduce((sum, tally) => sum + tally.count, 0);
      const deliveries = sent - first;
      console.log(JSON.stringify({ phase: name, deliveries, prefetch, statements, statementsPerDelivery: Math.round((statements / deliveries) * 100) / 100, deliveriesPerSecondOneConnection: Math.round(deliveries / seconds) }));
      if (process.env.STATEMENTS_DETAIL === '1') {
        for (const [text, { count, ms }] of [...counts.entries()].sort((a, b) => b[1].ms - a[1].ms)) console.log(String(count).padStart(6), `${(ms / count).toFixed(2).padStart(7)} ms`, text);
      }
    };
    await phase('opening (first DM of each customer)', Math.ceil(customers / prefetch));
    await phase('joining (DMs to open tickets)', windows);
    await pool.end();
  } finally {
    await db.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
