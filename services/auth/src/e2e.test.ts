/**
 * The whole of auth against the simulated platform, with webhook-ingest as the webhook:
 * an account connects through the three-legged flow in a "browser", the webhook is
 * registered (the platform's CRC reaches webhook-ingest, which asks auth for the key over
 * RPC) and the account subscribed; a DM sent through auth comes back to the webhook as a
 * signed echo. The run's logs hold no consumer secret, token or token secret.
 */
import { ACTIVITY_PARTITION_QUEUES, RawActivity, validateEnvelope, type RawActivityPayload } from '@crm/contracts';
import { readQueues, waitFor } from '@crm/testing';
import { mask } from '@crm/secrets';
import { readConfig as readIngestConfig } from '@crm/webhook-ingest/src/config';
import { startWebhookIngest } from '@crm/webhook-ingest/src/service';
import { startHarness, type Harness } from './testing/harness';

let h: Harness;

beforeAll(async () => {
  h = await startHarness({
    prefix: 'auth_e2e',
    webhookUrl: async ({ vhost, envName, logger }) => {
      const ingest = await startWebhookIngest(readIngestConfig({ PORT: '0', AMQP_URL: vhost.url }), { logger });
      return { url: `http://127.0.0.1:${ingest.port}/webhooks/${envName}`, close: ingest.stop };
    },
  });
});

afterAll(async () => {
  await h?.stop();
});

/** Raw activity webhook-ingest published (ticketing's partitions, read without a consumer). */
async function rawActivity(): Promise<RawActivityPayload[]> {
  // Not removed: they go back to their queues.
  const contents = await readQueues(h.vhost.url, ACTIVITY_PARTITION_QUEUES, { remove: false });
  return contents.map((content) => validateEnvelope(JSON.parse(content.toString('utf8')), RawActivity).payload);
}

describe('auth end to end against the simulated platform', () => {
  let accountId: string;

  it('connects an account through the three-legged flow and says so', async () => {
    accountId = await h.connect('@acme_support');
    const listed = await h.crm.get('/v1/accounts');
    expect(listed.status).toBe(200);
    expect(listed.data.items).toEqual([
      expect.objectContaining({ accountId, screenName: 'acme_support', status: 'connected', via: 'oauth', consumerKey: mask(h.secrets.consumerKey), accessTokenMasked: expect.stringMatching(/^.{4}….{4}$/) }),
    ]);
    expect(JSON.stringify(listed.data)).not.toContain(h.secrets.consumerKey);
    expect(JSON.stringify((await h.crm.get(`/v1/accounts/${accountId}`)).data)).not.toContain(h.secrets.consumerKey);
    const event = await h.waitForPublished('account.connected', (p) => p.accountId === accountId);
    expect(event.envelope.payload).toMatchObject({ screenName: 'acme_support', consumerKey: h.secrets.consumerKey, via: 'oauth' });

    // The platform saw the three legs, each signed as the leg needs.
    expect((await h.platformRequests('/oauth/request_token'))[0]).toMatchObject({ status: 200, caller: { kind: 'consumer' } });
    expect((await h.platformRequests('/oauth/access_token'))[0]).toMatchObject({ status: 200, caller: { kind: 'request-token' } });
  });

  it('registers the webhook (the CRC reaches webhook-ingest) and subscribes the account', async () => {
    const registered = await h.crm.post('/v1/webhooks', { ownerAccountId: accountId });
    expect(registered.status).toBe(201);
    expect(registered.data).toMatchObject({ url: h.config.PUBLIC_WEBHOOK_URL, valid: true });
    expect((await h.crm.get('/v1/webhooks')).data.items).toEqual([expect.objectContaining({ id: registered.data.id, valid: true })]);

    expect((await h.crm.put(`/v1/accounts/${accountId}/subscription`)).data).toEqual({ subscribed: true, alreadySubscribed: false });
    expect((await h.crm.get(`/v1/accounts/${accountId}/subscription`)).data).toEqual({ subscribed: true });
    expect((await h.crm.get('/v1/subscriptions')).data.items).toEqual([{ accountId }]);
  });

  it('sends a DM; its echo comes back to the webhook signed, with source_app_id, and is published', async () => {
    const customer = (await h.sim.post('/control/platform/users', { screenName: 'ana' })).data.id_str as string;
    const sent = await h.crm.post(`/v1/accounts/${accountId}/direct-messages`, { recipientId: customer, text: 'Your order 42 left the warehouse.' });
    expect(sent.status).toBe(200);
    const eventId = sent.data.platformId as string;
    expect(eventId).toMatch(/^[0-9]{18,19}$/);
    // Sent through v2; the dm_event_id it answered is the id the echo carries.
    expect(await h.platformRequests(`/2/dm_conversations/with/${customer}/messages`, 'POST')).toEqual([expect.objectContaining({ json: { text: 'Your order 42 left the warehouse.' }, status: 201 })]);

    const deliveries = await waitFor(async () => {
      const items = (await h.sim.get('/control/platform/deliveries')).data.items as { kind: string; eventIds: string[]; webhookStatus: number }[];
      return items.find((d) => d.kind === 'direct_message_events' && d.eventIds.includes(eventId));
    });
    expect(deliveries!.webhookStatus).toBe(200); // webhook-ingest verified the signature

    const activity = await waitFor(async () => (await rawActivity()).find((a) => JSON.stringify(a.delivery).includes(eventId)));
    const event = (activity!.delivery.direct_message_events as { id: string; message_create: { sender_id: string; source_app_id?: string; message_data: { text: string } } }[])[0]!;
    expect(activity!.forUserId).toBe(accountId);
    expect(event.id).toBe(eventId);
    expect(event.message_create.sender_id).toBe(accountId);
    expect(event.message_create.source_app_id).toMatch(/^[0-9]+$/);
    expect(event.message_create.message_data.text).toBe('Your order 42 left the warehouse.');
  });

  it('never logs the consumer secret, a token or a token secret', async () => {
    const tokens = await h.auth.pool.query<{ access_token_sealed: string }>('SELECT access_token_sealed FROM accounts');
    expect(tokens.rows).toHaveLength(1);
    const { AccountStore } = await import('./adapters/accounts');
    const { Keyring } = await import('./adapters/keyring');
    const opened = await new AccountStore(h.auth.pool, new Keyring(h.secrets.credentialsKey)).credentials(accountId);
    if (opened?.protocol !== 'oauth1') throw new Error('the account has no OAuth 1.0a token pair');
    const log = h.logLines.join('\n');
    expect(h.logLines.length).toBeGreaterThan(20);
    // Not even masked: nothing tried to log a secret.
    expect(log).not.toContain('[REDACTED]');
    for (const secret of [h.secrets.consumerSecret, h.secrets.credentialsKey, h.secrets.crmToken, opened.token.key, opened.token.secret]) {
      expect(log).not.toContain(secret);
    }
  });
});
