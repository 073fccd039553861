/**
 * Searching tickets (`GET /v1/tickets?q=`) on the real PostgreSQL, ticketing fed by real
 * deliveries: words (stemmed in the post's language), phrases, order numbers and handles, the
 * caller's account scope, a too-short query, the per-credential limit, and the search document
 * kept in step with edits, deletes and merges.
 */
import pg from 'pg';
import { startCredentialStandIn, type CredentialStandIn } from '@crm/access/src/testing';
import { postCreated, postDeleted } from '@crm/social-platform-simulator/src/activity-deliveries';
import { directMessageReceived } from '@crm/social-platform-simulator/src/deliveries';
import { testLogger, testPool, waitFor } from '@crm/testing';
import { SEARCH_WALK } from './adapters/db/ticket-queries';
import { apiClient, HandledMessages, TEST_TOKEN, ticketingUnderTest, type TicketingUnderTest } from './testing/harness';

let stack: TicketingUnderTest;
let auth: CredentialStandIn;
let pool: pg.Pool;
const handled = new HandledMessages();
const api = apiClient(() => `http://127.0.0.1:${stack.service.port}`);

const ACCOUNT = '32000001';
const OTHER_ACCOUNT = '32000002';
const ANA = { id: '3001969357', screenName: 'ana_lima', name: 'Ana Lima' };
const BOB = { id: '3001969358', screenName: 'bob', name: 'Bob Stone' };
const CID = { id: '3001969359', screenName: 'cid', name: 'Cid Moreau' };
let postSeq = 1_950_000_000_000_000_000n;
const nextPostId = () => String((postSeq += 1n));

async function deliver(delivery: object): Promise<void> {
  await handled.wait(await stack.publisher.delivery(delivery));
}

async function subjects(q: string, token?: string): Promise<string[]> {
  const { status, body } = await api.get<{ items: { subject: string }[] }>(`/v1/tickets?q=${encodeURIComponent(q)}`, token);
  expect(status).toBe(200);
  return body.items.map((ticket) => ticket.subject);
}

const ticketIdOf = async (subject: string) => (await pool.query<{ id: string }>('SELECT id FROM tickets WHERE subject = $1', [subject])).rows[0]!.id;

beforeAll(async () => {
  // Searches wait on a lock in the limit's test: no timeout should end them first.
  stack = await ticketingUnderTest('search', { SEARCHES_PER_CREDENTIAL: 1, SEARCH_STATEMENT_TIMEOUT_MS: 60_000, DB_LOCK_TIMEOUT_MS: 60_000 }, { onHandled: handled.note });
  auth = await startCredentialStandIn(stack.vhost.url, testLogger());
  pool = testPool(stack.db.url, { max: 2 });
  for (const account of [ACCOUNT, OTHER_ACCOUNT]) expect((await api.put(`/v1/partner-configs/${account}`, {})).status).toBe(201);
  await deliver(directMessageReceived({ account: ACCOUNT, customer: ANA, text: 'Parcel never arrived, order #100234' }));
  await deliver(postCreated({ account: ACCOUNT, author: BOB, text: 'I was promised refunds for the broken chairs', lang: 'en', eventId: nextPostId() }));
  await deliver(directMessageReceived({ account: ACCOUNT, customer: CID, text: 'Arrived never, parcel: ask @ana_lima about ORD-555666' }));
  await deliver(directMessageReceived({ account: OTHER_ACCOUNT, customer: ANA, text: 'Parcel never arrived either' }));
}, 60_000);

afterAll(async () => {
  await auth?.stop();
  await pool?.end();
  await stack?.stop();
});

describe('search', () => {
  it('finds words whatever their case, newest first', async () => {
    expect(await subjects('PARCEL')).toEqual(['Parcel never arrived either', 'Arrived never, parcel: ask @ana_lima about ORD-555666', 'Parcel never arrived, order #100234']);
  });

  it('finds a stemmed word in a post whose language is known', async () => {
    expect(await subjects('refund')).toEqual(['I was promised refunds for the broken chairs']);
    expect(await subjects('chair promise')).toEqual(['I was promised refunds for the broken chairs']);
  });

  it('finds an exact phrase, not the same words in another order', async () => {
    expect(await subjects('"never arrived" order')).toEqual(['Parcel never arrived, order #100234']);
  });

  it('finds an order number however it is written', async () => {
    for (const q of ['#100234', '100234', 'ORD-100234']) expect(await subjects(q)).toEqual(['Parcel never arrived, order #100234']);
    expect(await subjects('555666')).toEqual(['Arrived never, parcel: ask @ana_lima about ORD-555666']);
    expect(await subjects('100235')).toEqual([]);
  });

  it('finds a handle, mentioned or the contact', async () => {
    expect(await subjects('@ANA_LIMA')).toEqual(['Parcel never arrived either', 'Arrived never, parcel: ask @ana_lima about ORD-555666', 'Parcel never arrived, order #100234']);
    expect(await subjects('@bob')).toEqual(['I was promised refunds for the broken chairs']);
  });

  it('finds part of a word in a subject or contact name', async () => {
    expect(await subjects('romis')).toEqual(['I was promised refunds for the broken chairs']);
    expect(await subjects('Moreau')).toEqual(['Arrived never, parcel: ask @ana_lima about ORD-555666']);
  });

  it("keeps to the caller's accounts", async () => {
    const { token } = auth.credential(['tickets:read'], { accountIds: [OTHER_ACCOUNT] });
    expect(await subjects('parcel', token)).toEqual(['Parcel never arrived either']);
    expect(await subjects('#100234', token)).toEqual([]);
  });

  it('refuses a query too short to be useful with a sentence saying what to type', async () => {
    for (const q of ['a', ' % ', '@b']) {
      const { status, body } = await api.get(`/v1/tickets?q=${encodeURIComponent(q)}`);
      expect(status).toBe(400);
      expect(body).toEqual({ error: { code: 'invalid_search', message: 'q must have at least 2 letters or digits; type more of the word, "phrase", order number or @handle you are looking for' } });
    }
  });
});

describe('a page of search results', () => {
  const MANY = '32000003';
  /** The subjects of every page of `q` in MANY, following the cursors, and how many pages. */
  async function everyPage(q: string): Promise<{ subjects: string[]; pages: number }> {
    const found: string[] = [];
    let [cursor, pages] = [null as string | null, 0];
    do {
      const query = new URLSearchParams({ accountId: MANY, q, limit: '50', ...(cursor === null ? {} : { cursor }) });
      const { status, body } = await api.get<{ items: { subject: string }[]; nextCursor: string | null }>(`/v1/tickets?${query.toString()}`);
      expect(status).toBe(200);
      found.push(...body.items.map((ticket) => ticket.subject));
      [cursor, pages] = [body.nextCursor, pages + 1];
    } while (cursor !== null);
    return { subjects: found, pages };
  }

  beforeAll(async () => {
    // More tickets than a search walks (SEARCH_WALK), newest first: a word in every one, another
    // in every third, another only in 60 tickets older than them all (a year ago), and a
    // word in 30 new and 30 old ones. Set-based, through the tickets' own search-document trigger.
    await pool.query("INSERT INTO accounts (account_id, status, status_changed_at) VALUES ($1, 'connected', now())", [MANY]);
    await pool.query(
      `INSERT INTO tickets (account_id, status, channel, queue, folder, conversation_key, subject, created_at, last_activity_at)
       SELECT $1, 'closed', 'dm', 'social', 'inbox', 'bulk:' || n,
              CASE WHEN n <= 60 THEN 'walrus ' || n ELSE 'filler ' || n END
                || CASE WHEN n % 3 = 0 THEN ' thirds' ELSE '' END
                || CASE WHEN n <= 30 OR n > $2 + 60 - 30 THEN ' pelican' ELSE '' END,
              now() - interval '1 year' + n * interval '1 minute', now() - interval '1 year' + n * interval '1 minute'
         FROM generate_series(1, $2 + 60) n`,
      [MANY, SEARCH_WALK],
    );
  }, 60_000);

  const inOrder = async (condition: string) =>
    (await pool.query<{ subject: string }>(`SELECT subject FROM tickets WHERE account_id = $1 AND ${condition} ORDER BY created_at DESC, id DESC`, [MANY])).rows.map((row) => row.subject);

  it('holds the newest matches of a common word, and the next pages hold the rest in the same order', async () => {
    const { subjects: found, pages } = await everyPage('thirds');
    expect(found).toEqual(await inOrder("subject LIKE '% thirds%'"));
    expect(pages).toBe(Math.ceil(found.length / 50));
  });

  it('finds a word only older tickets hold, past the newest the search walks, newest first and page by page', async () => {
    const { subjects: found, pages } = await everyPage('walrus');
    expect(found).toEqual(Array.from({ length: 60 }, (_, i) => `walrus ${60 - i}${(60 - i) % 3 === 0 ? ' thirds' : ''}${60 - i <= 30 ? ' pelican' : ''}`));
    expect(pages).toBe(2);
  });

  it('finds a word in a few new tickets and a few old ones, the new first', async () => {
    expect((await everyPage('pelican')).subjects).toEqual(await inOrder("subject LIKE '% pelican%'"));
    expect((await everyPage('pelican')).subjects).toHaveLength(60);
  });
});

describe('the search document', () => {
  it('follows an edited activity', async () => {
    const eventId = nextPostId();
    await deliver(directMessageReceived({ account: ACCOUNT, customer: BOB, text: 'The lamp flickers', eventId }));
    await deliver(directMessageReceived({ account: ACCOUNT, customer: BOB, text: 'The lamp buzzes', eventId }));
    expect(await subjects('buzzes')).toEqual(['The lamp buzzes']);
    expect(await subjects('flickers')).toEqual([]);
  });

  it('forgets a deleted post and finds an added one', async () => {
    const postId = nextPostId();
    await deliver(postCreated({ account: ACCOUNT, author: CID, text: 'Zebra stripes', eventId: postId, lang: 'en' }));
    const ticketId = await ticketIdOf('Zebra stripes');
    await deliver(postCreated({ account: ACCOUNT, author: CID, text: 'and a giraffe', eventId: nextPostId(), lang: 'en', inReplyTo: { id: postId, author: CID, text: 'Zebra stripes' } }));
    expect(await subjects('giraffe')).toEqual(['Zebra stripes']);
    await pool.query('UPDATE activities SET deleted = true WHERE ticket_id = $1 AND text = $2', [ticketId, 'and a giraffe']);
    expect(await subjects('giraffe')).toEqual([]);
    await deliver(postDeleted({ account: ACCOUNT, postId, author: CID }));
    expect(await subjects('stripes')).toEqual(['Zebra stripes']); // the subject stays searchable
  });

  it('moves with the activities of a merged ticket, and back on an unmerge', async () => {
    await deliver(directMessageReceived({ account: OTHER_ACCOUNT, customer: BOB, text: 'Kettle leaks' }));
    await deliver(directMessageReceived({ account: OTHER_ACCOUNT, customer: CID, text: 'Toaster sparks' }));
    const [kettle, toaster] = [await ticketIdOf('Kettle leaks'), await ticketIdOf('Toaster sparks')];
    expect((await api.post(`/v1/tickets/${kettle}/merge`, { sourceIds: [toaster] })).status).toBeLessThan(300);
    // The merge's entries, which name the other ticket, are not searched.
    expect(await subjects('"toaster sparks" kettle')).toEqual(['Kettle leaks']);
    expect((await api.post(`/v1/tickets/${toaster}/unmerge`, {})).status).toBeLessThan(300);
    expect(await subjects('"toaster sparks" kettle')).toEqual([]);
  });
});

describe('the search limit', () => {
  it("refuses a credential's search beyond its limit with 429 and Retry-After, not another credential's", async () => {
    const blocker = await pool.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE ticket_search IN ACCESS EXCLUSIVE MODE');
      const first = api.get<{ items: unknown[] }>('/v1/tickets?q=parcel');
      await waitFor(
        async () => (await pool.query(`SELECT 1 FROM pg_locks WHERE relation = 'ticket_search'::regclass AND NOT granted`)).rowCount === 1,
        { what: 'the first search waiting' },
      );
      const response = await fetch(`http://127.0.0.1:${stack.service.port}/v1/tickets?q=lamp`, { headers: { authorization: `Bearer ${TEST_TOKEN}` } });
      expect(response.status).toBe(429);
      expect(response.headers.get('retry-after')).toBe('1');
      expect(await response.json()).toEqual({ error: { code: 'search_busy', message: 'this credential already runs 1 search at a time; wait for one to answer, then search again' } });
      const other = auth.credential(['tickets:read']);
      const second = api.get('/v1/tickets?q=lamp', other.token);
      await blocker.query('ROLLBACK');
      expect((await first).status).toBe(200);
      expect((await second).status).toBe(200);
    } finally {
      blocker.release();
    }
  });
});
