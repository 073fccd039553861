/**
 * `GET /v1/events` with API credentials and sessions (verified by a stand-in for auth on
 * `auth.rpc`), on the real RabbitMQ and PostgreSQL: a stream carries only what its principal
 * may read, ends when its credential or session is revoked, is capped per credential, and is
 * dropped when its client does not read, while the process goes on serving; agents on a ticket
 * are named on what they did and announce their presence to the streams that hear it.
 */
import { connect, type Socket } from 'node:net';
import pg from 'pg';
import { startCredentialStandIn, type CredentialStandIn } from '@crm/access/src/testing';
import { directMessageReceived } from '@crm/social-platform-simulator/src/deliveries';
import { freshDatabase, freshVirtualHost, testLogger, waitFor, type TestDatabase, type TestVirtualHost, testPool } from '@crm/testing';
import { AccountRepository } from './adapters/db/accounts';
import { CHANGES_CHANNEL } from './adapters/db/crm-events';
import { startTicketing, type RunningTicketing } from './service';
import { apiClient, HandledMessages, TEST_TOKEN, TestPublisher, testConfig } from './testing/harness';

let vhost: TestVirtualHost;
let db: TestDatabase;
let service: RunningTicketing;
let publisher: TestPublisher;
let pool: pg.Pool;
let auth: CredentialStandIn;
const handled = new HandledMessages();
const api = apiClient(() => `http://127.0.0.1:${service.port}`);

const ACCOUNT_A = '1001';
const ACCOUNT_B = '2002';
const BUFFER_BYTES = 64 * 1024;
let customerSeq = 5_100_000;
let eventSeq = 810_000;

beforeAll(async () => {
  [vhost, db] = await Promise.all([freshVirtualHost('ticketing_events'), freshDatabase('ticketing_events')]);
  auth = await startCredentialStandIn(vhost.url, testLogger());
  service = await startTicketing(testConfig({ AMQP_URL: vhost.url, DATABASE_URL: db.url, EVENT_STREAM_BUFFER_BYTES: BUFFER_BYTES, EVENT_STREAM_KEEPALIVE_MS: 300, CREDENTIAL_CACHE_TTL_MS: 500 }), { logger: testLogger('ticketing'), host: '127.0.0.1', onHandled: handled.note });
  publisher = new TestPublisher(vhost.url);
  await publisher.ready();
  pool = testPool(db.url, { max: 2 });
  for (const account of [ACCOUNT_A, ACCOUNT_B]) {
    await new AccountRepository(pool).recordChange({ accountId: account, status: 'connected', at: new Date() });
    expect((await api.put(`/v1/partner-configs/${account}`, {})).status).toBe(201);
  }
});

afterAll(async () => {
  await publisher?.close();
  await service?.stop();
  await auth?.stop();
  await pool?.end();
  await Promise.all([db?.drop(), vhost?.drop()]);
});

/** A customer's DM to the account (a new customer unless given); resolves with its ticket once recorded. */
async function dm(account: string, text: string, customerId = String((customerSeq += 1))): Promise<{ ticketId: string; customerId: string }> {
  const eventId = String((eventSeq += 1));
  await handled.wait(await publisher.delivery(directMessageReceived({ account, customer: { id: customerId, screenName: `c${customerId}`, name: 'Customer' }, text, eventId })));
  const { rows } = await pool.query<{ ticket_id: string }>('SELECT ticket_id FROM activities WHERE account_id = $1 AND platform_event_id = $2', [account, eventId]);
  return { ticketId: rows[0]!.ticket_id, customerId };
}

interface OpenStream {
  status: number;
  /** Everything received so far. */
  text: string;
  /** The refusal's body (not 200). */
  body: unknown;
  retryAfter: string | null;
  ended: boolean;
  close: () => void;
}

/** Opens `GET /v1/events` and reads it in the background. */
async function openStream(token: string, query = ''): Promise<OpenStream> {
  const abort = new AbortController();
  const response = await fetch(`http://127.0.0.1:${service.port}/v1/events${query}`, { headers: { authorization: `Bearer ${token}` }, signal: abort.signal });
  const stream: OpenStream = { status: response.status, text: '', body: null, retryAfter: response.headers.get('retry-after'), ended: false, close: () => abort.abort() };
  if (response.status !== 200) {
    stream.body = await response.json();
    stream.ended = true;
    return stream;
  }
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        stream.text += decoder.decode(value, { stream: true });
      }
    } catch {
      // aborted by the test
    }
    stream.ended = true;
  })();
  await waitFor(() => stream.text.includes(': connected'), { what: 'the stream connected' });
  return stream;
}

const count = (text: string, needle: string) => text.split(needle).length - 1;

describe('what a stream carries', () => {
  it('gives a credential limited to account 1001 only 1001’s events, and 404 for ?accountId=2002', async () => {
    const { token } = auth.credential(['tickets:read'], { accountIds: [ACCOUNT_A] });
    const witness = await openStream(TEST_TOKEN);
    const limited = await openStream(token);
    const limitedToA = await openStream(token, `?accountId=${ACCOUNT_A}`);
    const refused = await openStream(token, `?accountId=${ACCOUNT_B}`);
    expect(refused).toMatchObject({ status: 404, body: { error: { code: 'account_not_found', message: expect.any(String) } } });

    const b = await dm(ACCOUNT_B, 'private DM for 2002 only');
    const a = await dm(ACCOUNT_A, 'a DM for 1001');
    await waitFor(() => witness.text.includes(b.ticketId) && witness.text.includes(a.ticketId), { what: 'the witness hearing both' });
    await waitFor(() => limited.text.includes(a.ticketId) && limitedToA.text.includes(a.ticketId), { what: 'the limited streams hearing 1001' });
    for (const stream of [limited, limitedToA]) {
      expect(stream.text).not.toContain(b.ticketId);
      expect(stream.text).not.toContain(`"accountId":"${ACCOUNT_B}"`);
      expect(stream.text).not.toContain('private DM');
    }
    for (const stream of [witness, limited, limitedToA]) stream.close();
  });

  it('gives a session limited to one ticket only that ticket’s events', async () => {
    const mine = await dm(ACCOUNT_A, 'the launched ticket');
    const session = auth.session({ ticketIds: [mine.ticketId] });
    const witness = await openStream(TEST_TOKEN);
    const stream = await openStream(session.token);
    expect((await openStream(session.token, `?accountId=${ACCOUNT_A}`)).status).toBe(404);

    const other = await dm(ACCOUNT_A, 'another customer, another ticket');
    const again = await dm(ACCOUNT_A, 'the launched ticket, once more', mine.customerId);
    expect(again.ticketId).toBe(mine.ticketId);
    // The other ticket's events came before the launched ticket's last ones: once the session heard those, it has passed them by.
    await waitFor(() => witness.text.includes(other.ticketId) && count(stream.text, mine.ticketId) > 0 && count(stream.text, mine.ticketId) === count(witness.text, mine.ticketId), {
      what: 'the session hearing every event of its ticket',
    });
    expect(stream.text).not.toContain(other.ticketId);
    const ticketIds = [...stream.text.matchAll(/"ticketId":"([^"]+)"/g)].map((match) => match[1]);
    expect(new Set(ticketIds)).toEqual(new Set([mine.ticketId]));
    witness.close();
    stream.close();
  });
});

describe('agents on a ticket', () => {
  it('records who replied, noted, assigned and changed the status, and names them on the timeline', async () => {
    const { ticketId } = await dm(ACCOUNT_A, 'where is my parcel?');
    const agent = auth.credential(['tickets:read', 'tickets:write']);
    expect((await api.post(`/v1/tickets/${ticketId}/replies`, { text: 'looking now' }, agent.token)).status).toBe(202);
    expect((await api.post(`/v1/tickets/${ticketId}/notes`, { text: 'checked the depot' }, agent.token)).body).toMatchObject({ by: agent.id, byName: `test ${agent.id}` });
    expect((await api.patch(`/v1/tickets/${ticketId}`, { assignee: agent.id, status: 'pending' }, agent.token)).status).toBe(200);
    const shown = await api.get<{ activities: { kind: string; direction: string; by: string | null; byName: string | null }[] }>(`/v1/tickets/${ticketId}`, agent.token);
    const mine = shown.body.activities.filter((entry) => entry.direction !== 'inbound');
    expect(mine.map(({ kind, by, byName }) => ({ kind, by, byName }))).toEqual(
      ['dm_sent', 'note', expect.any(String)].map((kind) => ({ kind, by: agent.id, byName: `test ${agent.id}` })),
    );
    const customer = shown.body.activities.find((entry) => entry.direction === 'inbound');
    expect(customer).toMatchObject({ by: null, byName: null });
  });

  it("tells every stream that hears the ticket who is viewing or typing there, and refuses a state it does not know", async () => {
    const { ticketId } = await dm(ACCOUNT_A, 'any news?');
    const watcher = await openStream(auth.credential(['tickets:read']).token);
    const other = await openStream(auth.credential(['tickets:read'], { accountIds: [ACCOUNT_B] }).token);
    const viewer = auth.credential(['tickets:read']);
    const said = await api.put<{ state: string; expiresAt: string }>(`/v1/tickets/${ticketId}/presence`, { state: 'typing' }, viewer.token);
    expect(said.status).toBe(200);
    await waitFor(() => watcher.text.includes('event: agent.presence'), { what: 'the presence heard' });
    const data = JSON.parse(/event: agent\.presence\ndata: (.*)/.exec(watcher.text)![1]!) as Record<string, unknown>;
    expect(data).toMatchObject({ type: 'agent.presence', ticketId, accountId: ACCOUNT_A, expiresAt: said.body.expiresAt, data: { agentId: viewer.id, name: `test ${viewer.id}`, state: 'typing' } });
    // A stream of another account's credential hears nothing of it; an unknown state is 400.
    await dm(ACCOUNT_B, 'a later event on 2002');
    await waitFor(() => other.text.includes('ticket.created'), { what: 'the other stream hearing its own account' });
    expect(other.text).not.toContain('agent.presence');
    expect((await api.put(`/v1/tickets/${ticketId}/presence`, { state: 'dancing' }, viewer.token)).status).toBe(400);
    watcher.close();
    other.close();
  });
});

describe('revocation', () => {
  it('ends an open stream within 5 s of its credential’s revocation being announced', async () => {
    const { token, id } = auth.credential(['tickets:read']);
    const stream = await openStream(token);
    const started = Date.now();
    auth.revoke(token);
    await auth.announce(id);
    await waitFor(() => stream.ended, { what: 'the revoked credential’s stream ending', timeoutMs: 5_000 });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect((await openStream(token)).status).toBe(401);
  });

  it('ends a stream whose revocation was never announced at a keep-alive once the cached check has expired', async () => {
    const { token } = auth.credential(['tickets:read']);
    const stream = await openStream(token);
    const other = await openStream(auth.credential(['tickets:read']).token);
    auth.revoke(token);
    // keep-alive 300 ms, cache 500 ms: ended within about a second, without any announcement.
    await waitFor(() => stream.ended, { what: 'the unannounced revoked stream ending', timeoutMs: 5_000 });
    expect(other.ended).toBe(false);
    other.close();
  });

  it('ends a session’s stream when the session is revoked, and leaves its credential’s own stream open', async () => {
    const { token, id } = auth.credential(['tickets:read']);
    const session = auth.session({ credentialId: id, scopes: ['tickets:read'] });
    const own = await openStream(token);
    const signedIn = await openStream(session.token);
    auth.revoke(session.token);
    await auth.announce(session.sessionId);
    await waitFor(() => signedIn.ended, { what: 'the session’s stream ending', timeoutMs: 5_000 });
    const later = await dm(ACCOUNT_A, 'still heard by the credential');
    await waitFor(() => own.text.includes(later.ticketId), { what: 'the credential’s stream still hearing' });
    expect(own.ended).toBe(false);
    own.close();
  });
});

describe('limits', () => {
  it('refuses the 11th stream of one credential with 429 too_many_streams, not another credential’s', async () => {
    const { token } = auth.credential(['tickets:read']);
    const open = await Promise.all(Array.from({ length: 10 }, () => openStream(token)));
    expect(open.map((stream) => stream.status)).toEqual(Array(10).fill(200));
    const eleventh = await openStream(token);
    expect(eleventh).toMatchObject({ status: 429, body: { error: { code: 'too_many_streams', message: expect.stringContaining('10') } } });
    expect(Number(eleventh.retryAfter)).toBeGreaterThan(0);
    const other = await openStream(auth.credential(['tickets:read']).token);
    expect(other.status).toBe(200);

    open[0]!.close();
    await waitFor(async () => {
      const next = await openStream(token);
      next.close();
      return next.status === 200;
    }, { what: 'a stream admitted once one closed' });
    for (const stream of [...open, other]) stream.close();
  });

  it('drops a stream whose client never reads once its unsent events pass the bound, and goes on serving', async () => {
    const account = '3003';
    const { token } = auth.credential(['tickets:read'], { accountIds: [account] });
    const dropped = async () => Number(/^event_streams_dropped_total (\d+)/m.exec(await (await fetch(`http://127.0.0.1:${service.port}/metrics`)).text())?.[1] ?? 0);
    const before = await dropped();

    // A client that sends its request and never reads a byte.
    const socket: Socket = connect(service.port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    socket.pause();
    socket.write(`GET /v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n\r\n`);
    // The stream is open once its answer's head arrives (a paused socket still buffers what comes).
    await waitFor(() => socket.readableLength > 0, { what: 'the stream being open' });

    // Committed changes of the account as the database announces them: about 20 MB, more than any socket buffers hold.
    const padding = 'x'.repeat(6_000);
    for (let batch = 0; batch < 6; batch += 1) {
      await pool.query(
        `SELECT pg_notify($1, json_build_object('id', 'flood-' || $2 || '-' || n, 'type', 'ticket.updated', 'ticketId', null, 'accountId', $3::text, 'actor', 'test',
                                               'occurredAt', now(), 'data', json_build_object('padding', $4::text))::text)
           FROM generate_series(1, 500) AS n`,
        [CHANGES_CHANNEL, batch, account, padding],
      );
      if ((await dropped()) > before) break;
    }
    await waitFor(async () => (await dropped()) > before, { what: 'the unread stream dropped', timeoutMs: 15_000 });
    socket.destroy();

    expect((await fetch(`http://127.0.0.1:${service.port}/health/ready`)).status).toBe(200);
    const reader = await openStream(token);
    const { ticketId } = await dm(ACCOUNT_A, 'after the flood');
    expect((await api.get(`/v1/tickets/${ticketId}`)).status).toBe(200);
    await pool.query(`SELECT pg_notify($1, $2)`, [CHANGES_CHANNEL, JSON.stringify({ id: 'after-flood', type: 'ticket.updated', ticketId: null, accountId: account, actor: 'test', occurredAt: new Date().toISOString() })]);
    await waitFor(() => reader.text.includes('after-flood'), { what: 'a reading stream still served' });
    reader.close();
  });
});
