/**
 * A revoke delivery (`user_event` on `social.activity`, as webhook-ingest publishes it) makes
 * auth forget the account's credentials and announce `account.revoked`, once per change: the
 * account shows as revoked, its sealed token pair is gone, actions fail without a call to the
 * platform, and connecting it again works.
 */
import { createHash } from 'node:crypto';
import { Exchanges, Queues, RawActivity, SYSTEM_TOPOLOGY } from '@crm/contracts';
import { Broker, listDeadLetters, makeEnvelope, Publisher } from '@crm/messaging';
import { appRevoked } from '@crm/social-platform-simulator/src/activity-deliveries';
import { testLogger, waitFor } from '@crm/testing';
import { startHarness, type Harness } from './testing/harness';

let h: Harness;
let broker: Broker;
let publisher: Publisher;

beforeAll(async () => {
  h = await startHarness({ prefix: 'auth_revoke' });
  broker = new Broker({ url: h.vhost.url, name: 'webhook-ingest-as-test', logger: testLogger() });
  publisher = new Publisher(broker, SYSTEM_TOPOLOGY);
  await publisher.ready();
});

afterAll(async () => {
  await publisher?.close();
  await broker?.close();
  await h?.stop();
});

/** What webhook-ingest publishes when the platform delivers a revoke. */
const revoke = (accountId: string, revokedAt: Date) => deliver(accountId, appRevoked({ account: accountId, createdAt: revokedAt }));

/** Publishes a `user_event` delivery as webhook-ingest does; resolves once auth settled it. */
async function deliver(accountId: string, delivery: Record<string, unknown>): Promise<void> {
  const bodySha256 = createHash('sha256').update(JSON.stringify(delivery)).digest('hex');
  const envelope = makeEnvelope(RawActivity, 'webhook-ingest', { envName: 'test', kind: 'user_event', forUserId: accountId, receivedAt: new Date().toISOString(), bodySha256, delivery });
  let settled = false;
  const off = h.auth.activityConsumer.onSettled((messageId) => {
    settled ||= messageId === envelope.id;
  });
  try {
    await publisher.publish(Exchanges.socialActivity, `user_event.${accountId}`, envelope);
    await waitFor(() => settled, { what: `revoke ${envelope.id} handled` });
  } finally {
    off();
  }
}

const announcedRevokes = (accountId: string) => h.published.filter((p) => p.routingKey === 'account.revoked' && p.envelope.payload.accountId === accountId);

const tokensOf = async (accountId: string) =>
  (await h.auth.pool.query('SELECT access_token_sealed, access_token_secret_sealed FROM accounts WHERE account_id = $1', [accountId])).rows[0] as {
    access_token_sealed: string | null;
    access_token_secret_sealed: string | null;
  };

describe('a revoke delivery', () => {
  let accountId: string;

  it('forgets the token pair, shows the account as revoked and announces account.revoked', async () => {
    accountId = await h.connect('@revoking_rita');
    expect((await tokensOf(accountId)).access_token_sealed).toEqual(expect.any(String));

    const revokedAt = new Date();
    await revoke(accountId, revokedAt);
    await waitFor(async () => (await h.crm.get(`/v1/accounts/${accountId}`)).data.status === 'revoked', { what: 'account revoked' });
    const announced = await h.waitForPublished('account.revoked', (p) => p.accountId === accountId);
    expect(announced.envelope).toMatchObject({
      type: 'account.revoked.v1',
      producer: 'auth',
      payload: { accountId, appId: expect.stringMatching(/^[0-9]+$/), revokedAt: new Date(Math.floor(revokedAt.getTime() / 1000) * 1000).toISOString(), detectedBy: 'webhook' },
    });
    expect(await tokensOf(accountId)).toEqual({ access_token_sealed: null, access_token_secret_sealed: null });
    const shown = (await h.crm.get(`/v1/accounts/${accountId}`)).data;
    expect(shown).toMatchObject({ accountId, status: 'revoked', statusReason: expect.stringContaining('revoked') });
  });

  it('an action of the revoked account fails without calling the platform', async () => {
    await h.sim.delete('/control/platform/requests');
    const sent = await h.crm.post(`/v1/accounts/${accountId}/direct-messages`, { recipientId: '4242', text: 'hello?' });
    expect(sent.status).toBe(404);
    expect(sent.data.error).toMatchObject({ code: 'account_not_connected', message: expect.stringContaining('revoked') });
    expect(await h.platformRequests('/2/dm_conversations/with/4242/messages')).toEqual([]);
  });

  it('a revoke seen again, or older than a new connection, changes nothing', async () => {
    await revoke(accountId, new Date());
    expect((await h.crm.get(`/v1/accounts/${accountId}`)).data.status).toBe('revoked');

    const before = new Date();
    expect(await h.connect('@revoking_rita')).toBe(accountId);
    expect((await h.crm.get(`/v1/accounts/${accountId}`)).data.status).toBe('connected');
    // Delivered late: it happened before the account was connected again.
    await revoke(accountId, new Date(before.getTime() - 60_000));
    expect((await h.crm.get(`/v1/accounts/${accountId}`)).data.status).toBe('connected');
    expect((await tokensOf(accountId)).access_token_sealed).toEqual(expect.any(String));

    // Announced once, for the one change. The outbox is relayed in order on one channel: once a later announcement arrived, every earlier one has.
    const marker = await h.connect('@marker_max');
    await h.waitForPublished('account.connected', (p) => p.accountId === marker);
    expect(announcedRevokes(accountId)).toHaveLength(1);
  });

  it('an unreadable revoke goes to the DLQ and changes nothing', async () => {
    const other = await h.connect('@steady_sam');
    await deliver(other, { user_event: { revoke: { date_time: 'yesterday', source: { user_id: other } } } });
    const dead = await listDeadLetters(h.vhost.url, Queues.authActivity);
    expect(dead).toEqual([expect.objectContaining({ reason: expect.stringContaining('date_time') })]);
    expect((await h.crm.get(`/v1/accounts/${other}`)).data.status).toBe('connected');
    expect(announcedRevokes(other)).toEqual([]);
  });
});
