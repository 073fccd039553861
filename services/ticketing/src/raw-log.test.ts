import pg from 'pg';
import { listActivityDeadLetters } from '@crm/messaging';
import { typingIndicated } from '@crm/social-platform-simulator/src/activity-deliveries';
import { directMessageReceived } from '@crm/social-platform-simulator/src/deliveries';
import { testLogger, waitFor, testPool } from '@crm/testing';
import { runCli } from './cli-commands';
import { HandledMessages, testConfig, ticketingUnderTest, type TicketingUnderTest } from './testing/harness';

/**
 * The raw log keeps every delivery webhook-ingest accepted, once, whatever interpretation
 * makes of it: recorded, ignored (typing between two other users) or dead-lettered.
 */

let stack: TicketingUnderTest;
let pool: pg.Pool;
const logged = new HandledMessages();
const handled = new HandledMessages();
const ACCOUNT = '7300000001';
const ANA = { id: '930000001', screenName: 'ana', name: 'Ana' };
const BOB = { id: '930000002', screenName: 'bob', name: 'Bob' };

beforeAll(async () => {
  stack = await ticketingUnderTest('rawlog', {}, { onHandled: handled.note, onRawLogged: logged.note });
  pool = testPool(stack.db.url, { max: 2 });
});

afterAll(async () => {
  await pool?.end();
  await stack?.stop();
});

it('logs each accepted delivery once: one that becomes a ticket, one nothing is recorded of, and one the DLQ gets', async () => {
  const dm = await stack.publisher.delivery(directMessageReceived({ account: ACCOUNT, customer: ANA, text: 'hello', eventId: '1730000000000000001' }));
  const othersTyping = await stack.publisher.delivery(typingIndicated({ account: ACCOUNT, sender: ANA, recipient: BOB }));
  const invalid = await stack.publisher.delivery({ for_user_id: ACCOUNT, direct_message_events: [{ type: 'message_create', id: 'x' }] });
  await stack.publisher.delivery(directMessageReceived({ account: ACCOUNT, customer: ANA, text: 'hello', eventId: '1730000000000000001' }), dm);
  for (const id of [dm, othersTyping, invalid]) await logged.wait(id);
  await waitFor(async () => (await listActivityDeadLetters(stack.vhost.url)).some((letter) => letter.messageId === invalid), { what: 'the invalid delivery in the DLQ' });

  const { rows } = await pool.query<{ delivery_id: string; env_name: string; for_user_id: string; message: Buffer }>('SELECT delivery_id, env_name, for_user_id, message FROM raw_log ORDER BY seq');
  expect(rows.map((row) => row.delivery_id).sort()).toEqual([dm, othersTyping, invalid].sort());
  const entry = rows.find((row) => row.delivery_id === dm)!;
  expect(entry).toMatchObject({ env_name: 'test', for_user_id: ACCOUNT });
  expect(JSON.parse(entry.message.toString('utf8'))).toMatchObject({ id: dm, payload: { kind: 'direct_message_events', delivery: { for_user_id: ACCOUNT } } });
});

/** An entry logged `daysAgo` days ago, as the table's owner may write it (the test's past). */
async function loggedDaysAgo(daysAgo: number): Promise<void> {
  const at = new Date(Date.now() - daysAgo * 86_400_000);
  const id = `delivery-${at.getTime().toString(16).padStart(64, '0')}`;
  await pool.query(
    `INSERT INTO raw_log (delivery_id, env_name, kind, for_user_id, received_at, logged_at, body_sha256, message) VALUES ($1, 'test', 'direct_message_events', $2, $3, $3, $4, '\\x7b7d')`,
    [id, ACCOUNT, at, id.slice('delivery-'.length)],
  );
}

it('refuses to change or truncate an entry; only the purge deletes, and only the weeks wholly past the cutoff', async () => {
  await expect(pool.query("UPDATE raw_log SET env_name = 'forged'")).rejects.toThrow(/append-only/);
  await expect(pool.query('TRUNCATE raw_log')).rejects.toThrow(/append-only/);
  const before = await stack.service.rawLog.count();
  expect(await stack.service.rawLog.purgeBefore(new Date(Date.now() - 60_000))).toBe(0);
  // This week's entries stay until the whole week is past the cutoff.
  expect(await stack.service.rawLog.purgeBefore(new Date(Date.now() + 60_000))).toBe(0);
  expect(await stack.service.rawLog.count()).toBe(before);
  await loggedDaysAgo(8);
  expect(await stack.service.rawLog.count()).toBe(before + 1);
  expect(await stack.service.rawLog.purgeBefore(new Date(Date.now() - 12 * 3_600_000))).toBe(1);
  expect(await stack.service.rawLog.count()).toBe(before);
});

it("refuses DELETE to a role that is not the table's owner, even one granted the right; the purge, run as the owner, still deletes", async () => {
  await stack.publisher.delivery(directMessageReceived({ account: ACCOUNT, customer: BOB, text: 'hi', eventId: '1730000000000000009' })).then((id) => logged.wait(id));
  await loggedDaysAgo(9);
  const role = `rawlog_${Date.now().toString(36)}`;
  const client = await pool.connect();
  try {
    await client.query(`CREATE ROLE ${role} NOLOGIN`);
    await client.query(`GRANT SELECT, DELETE ON raw_log TO ${role}`);
    await client.query(`SET ROLE ${role}`);
    await expect(client.query('DELETE FROM raw_log')).rejects.toThrow('raw_log is append-only: DELETE refused');
    await client.query('RESET ROLE');
    const before = await stack.service.rawLog.count();
    expect(await stack.service.rawLog.purgeBefore(new Date(Date.now() - 12 * 3_600_000))).toBe(1);
    expect(await stack.service.rawLog.count()).toBe(before - 1);
  } finally {
    await client.query('RESET ROLE');
    await client.query(`DROP OWNED BY ${role}`);
    await client.query(`DROP ROLE ${role}`);
    client.release();
  }
});

it('the rebuild command refuses unclear arguments and the live database with a usage line', async () => {
  const config = testConfig({ AMQP_URL: stack.vhost.url, DATABASE_URL: stack.db.url });
  for (const argv of [['rebuild'], ['rebuild', '--into', 'not-a-url'], ['rebuild', '--into', stack.db.url], ['rebuild', '--into', `${stack.db.url}_x`, '--account', 'abc'], ['replay']]) {
    const err: string[] = [];
    expect(await runCli(argv, config, testLogger('cli'), { out: () => undefined, err: (line) => err.push(line) })).toBe(2);
    expect(err.join('\n')).toMatch(/usage: cli rebuild --into/);
  }
});
