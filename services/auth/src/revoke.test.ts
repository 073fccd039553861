/**
 * `account.revoked` (published by ticketing when the platform delivers a revoke) makes auth
 * forget the account's credentials: the account shows as revoked, its sealed token pair is
 * gone, actions fail without a call to the platform, and connecting it again works.
 */
import { AccountRevoked, ACCOUNT_REVOKED_KEY, Exchanges, SYSTEM_TOPOLOGY } from '@crm/contracts';
import { Broker, makeEnvelope, Publisher } from '@crm/messaging';
import { testLogger, waitFor } from '@crm/testing';
import { startHarness, type Harness } from './testing/harness';

let h: Harness;
let broker: Broker;
let publisher: Publisher;

beforeAll(async () => {
  h = await startHarness({ prefix: 'auth_revoke' });
  broker = new Broker({ url: h.vhost.url, name: 'ticketing-as-test', logger: testLogger() });
  publisher = new Publisher(broker, SYSTEM_TOPOLOGY);
  await publisher.ready();
});

afterAll(async () => {
  await publisher?.close();
  await broker?.close();
  await h?.stop();
});

/** What ticketing publishes when a revoke delivery arrives. */
async function revoke(accountId: string, revokedAt: Date): Promise<string> {
  const envelope = makeEnvelope(AccountRevoked, 'ticketing', { accountId, appId: '3033300', revokedAt: revokedAt.toISOString(), detectedBy: 'webhook' });
  await publisher.publish(Exchanges.accountEvents, ACCOUNT_REVOKED_KEY, envelope);
  return envelope.id;
}

const tokensOf = async (accountId: string) =>
  (await h.auth.pool.query('SELECT access_token_sealed, access_token_secret_sealed FROM accounts WHERE account_id = $1', [accountId])).rows[0] as {
    access_token_sealed: string | null;
    access_token_secret_sealed: string | null;
  };

const handled = (envelopeId: string) =>
  waitFor(() => h.logLines.some((line) => line.includes(envelopeId) && line.includes('account revoke')), { what: `revoke ${envelopeId} handled` });

describe('account.revoked', () => {
  let accountId: string;

  it('forgets the token pair and shows the account as revoked', async () => {
    accountId = await h.connect('@revoking_rita');
    expect((await tokensOf(accountId)).access_token_sealed).toEqual(expect.any(String));

    const id = await revoke(accountId, new Date());
    await waitFor(async () => (await h.crm.get(`/v1/accounts/${accountId}`)).data.status === 'revoked', { what: 'account revoked' });
    await handled(id);
    expect(await tokensOf(accountId)).toEqual({ access_token_sealed: null, access_token_secret_sealed: null });
    const shown = (await h.crm.get(`/v1/accounts/${accountId}`)).data;
    expect(shown).toMatchObject({ accountId, status: 'revoked', statusReason: expect.stringContaining('revoked') });
  });

  it('an action of the revoked account fails without calling the platform', async () => {
    await h.sim.delete('/control/platform/requests');
    const sent = await h.crm.post(`/v1/accounts/${accountId}/direct-messages`, { recipientId: '4242', text: 'hello?' });
    expect(sent.status).toBe(404);
    expect(sent.data.error).toMatchObject({ code: 'account_not_connected', message: expect.stringContaining('revoked') });
    expect(await h.platformRequests('/1.1/direct_messages/events/new.json')).toEqual([]);
  });

  it('a revoke seen again, or older than a new connection, changes nothing', async () => {
    const again = await revoke(accountId, new Date());
    await handled(again);
    expect((await h.crm.get(`/v1/accounts/${accountId}`)).data.status).toBe('revoked');

    const before = new Date();
    expect(await h.connect('@revoking_rita')).toBe(accountId);
    expect((await h.crm.get(`/v1/accounts/${accountId}`)).data.status).toBe('connected');
    // Delivered late: it happened before the account was connected again.
    const late = await revoke(accountId, new Date(before.getTime() - 60_000));
    await handled(late);
    expect((await h.crm.get(`/v1/accounts/${accountId}`)).data.status).toBe('connected');
    expect((await tokensOf(accountId)).access_token_sealed).toEqual(expect.any(String));
  });
});
