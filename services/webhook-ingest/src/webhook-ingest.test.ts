import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import amqplib from 'amqplib';
import axios from 'axios';
import { ACTIVITY_PARTITION_QUEUES, Queues, RawActivity, SYSTEM_TOPOLOGY, validateEnvelope, WebhookKeyRequest, type RawActivityPayload } from '@crm/contracts';
import { Broker, RpcError, RpcServer, rpcMethod } from '@crm/messaging';
import { readQueues, startPrivateBroker, testLogger, waitFor, type PrivateBroker } from '@crm/testing';
import { crcResponse, sign } from '@crm/webhook-signature';
import { readConfig } from './config';
import { startWebhookIngest, type RunningService } from './service';

const SECRET = 'env-consumer-secret-for-tests';
const logger = testLogger('webhook-ingest-test');

// A broker of this file's own: the outage test stops it, never the machine's.
let own: PrivateBroker;
let vhost: { url: string };
let service: RunningService;
let authBroker: Broker;
let fakeAuth: RpcServer;
let keyLookups = 0;
let base: string;

const http = axios.create({ validateStatus: () => true });
const dm = (text: string, id = randomBytes(8).readBigUInt64BE().toString()) =>
  Buffer.from(
    JSON.stringify({
      for_user_id: '4337869213',
      direct_message_events: [{ type: 'message_create', id, created_timestamp: '1516403560557', message_create: { target: { recipient_id: '4337869213' }, sender_id: '3001969357', message_data: { text } } }],
      users: { '3001969357': { id: '3001969357', name: 'Jordan', screen_name: 'furiouscamper' } },
    }).replace(/</g, '\\u003c'),
  );
const post = (body: Buffer, signature: string | undefined, env = 'dev') =>
  http.post(`${base}/webhooks/${env}`, body, { headers: { 'content-type': 'application/json', ...(signature ? { 'x-twitter-webhooks-signature': signature } : {}) } });

/** Messages waiting in ticketing's activity partitions. */
async function activityDepth(): Promise<number> {
  const depths = await Promise.all(ACTIVITY_PARTITION_QUEUES.map((queue) => queueDepth(queue)));
  return depths.reduce((sum, depth) => sum + depth, 0);
}

async function takeMessages(): Promise<unknown[]> {
  const contents = await readQueues(vhost.url, ACTIVITY_PARTITION_QUEUES, { remove: true });
  return contents.map((content) => JSON.parse(content.toString()) as unknown);
}

async function queueDepth(name: string): Promise<number> {
  const connection = await amqplib.connect(vhost.url);
  const { messageCount } = await (await connection.createChannel()).checkQueue(name);
  await connection.close();
  return messageCount;
}

beforeAll(async () => {
  own = await startPrivateBroker('webhook-ingest');
  vhost = { url: own.url };
  authBroker = new Broker({ url: vhost.url, name: 'fake-auth', logger });
  fakeAuth = new RpcServer(authBroker, {
    queue: Queues.authRpc,
    topology: SYSTEM_TOPOLOGY,
    producer: 'auth',
    methods: [
      rpcMethod(WebhookKeyRequest, async ({ envName }) => {
        keyLookups += 1;
        if (envName === 'dev') return { consumerSecret: SECRET };
        if (envName === 'sealed') throw new RpcError('internal', 'the key cannot be unsealed');
        throw new RpcError('unknown_environment', `no environment ${envName}`);
      }),
    ],
  });
  await fakeAuth.ready();
  const config = readConfig({ PORT: '0', AMQP_URL: vhost.url, BODY_LIMIT: '2kb', PUBLISH_TIMEOUT_MS: '1500' });
  service = await startWebhookIngest(config, { logger });
  base = `http://127.0.0.1:${service.port}`;
}, 90_000);

afterAll(async () => {
  await service.stop();
  await fakeAuth.stop();
  await authBroker.close();
  await own.stop();
});

describe('its OpenAPI document', () => {
  it('is served at /openapi.json, rendered at /docs, without a credential', async () => {
    const document = await http.get(`${base}/openapi.json`);
    expect(document.status).toBe(200);
    expect(document.data).toMatchObject({ openapi: '3.1.0', info: { title: 'webhook-ingest' } });
    expect(Object.keys(document.data.paths)).toContain('/webhooks/{envName}');
    const docs = await http.get(`${base}/docs`);
    expect(docs.status).toBe(200);
    expect(docs.headers['content-type']).toContain('text/html');
    expect((await http.get(`${base}/docs/assets/swagger-ui-bundle.js`)).status).toBe(200);
  });

  it('refuses requests it does not allow before any route runs', async () => {
    const unknownParameter = await http.get(`${base}/health/ready`, { params: { verbose: '1' } });
    expect(unknownParameter.status).toBe(400);
    expect(unknownParameter.data.error.message).toContain('verbose');
    const method = await http.put(`${base}/webhooks/dev`, '{}');
    expect(method.status).toBe(405);
    expect(method.data.error.code).toBe('method_not_allowed');
    const route = await http.get(`${base}/webhooks`);
    expect(route.status).toBe(404);
    expect(route.data.error).toEqual({ code: 'not_found', message: 'no route for GET /webhooks' });
  });
});

describe('CRC', () => {
  it('answers with the HMAC of the token under the environment key', async () => {
    const token = 'Zm9vYmFyYmF6cXV4MTIzNDU2';
    const res = await http.get(`${base}/webhooks/dev`, { params: { crc_token: token } });
    expect(res.status).toBe(200);
    expect(res.data).toEqual(crcResponse(SECRET, token));
    // Parameters the platform may add to the challenge are no reason to fail it.
    expect((await http.get(`${base}/webhooks/dev`, { params: { crc_token: token, nonce: 'abc' } })).data).toEqual(crcResponse(SECRET, token));
  });

  it('refuses to sign anything that does not look like a token, naming the parameter', async () => {
    const json = await http.get(`${base}/webhooks/dev`, { params: { crc_token: '{"for_user_id":1}' } });
    expect(json.status).toBe(400);
    expect(json.data.error).toMatchObject({ code: 'invalid_request', message: expect.stringContaining('query.crc_token') });
    const short = await http.get(`${base}/webhooks/dev`, { params: { crc_token: 'some_random' } });
    expect(short.status).toBe(400);
    expect(short.data.error).toMatchObject({ code: 'invalid_request', message: 'query.crc_token must match pattern "^[A-Za-z0-9+/=_-]{16,128}$"' });
    const missing = await http.get(`${base}/webhooks/dev`);
    expect(missing.status).toBe(400);
    expect(missing.data.error).toEqual({ code: 'invalid_request', message: 'query.crc_token is required', fields: [{ in: 'query', field: 'crc_token', message: 'is required' }] });
  });

  it('says 404 for an environment auth does not know', async () => {
    const res = await http.get(`${base}/webhooks/staging`, { params: { crc_token: 'Zm9vYmFyYmF6cXV4MTIzNDU2' } });
    expect(res.status).toBe(404);
    expect(res.data.error).toEqual({ code: 'unknown_environment', message: expect.stringContaining('staging') });
    const unusable = await http.get(`${base}/webhooks/not%20a%20name`, { params: { crc_token: 'Zm9vYmFyYmF6cXV4MTIzNDU2' } });
    expect(unusable.status).toBe(404);
    expect(unusable.data.error).toEqual({ code: 'unknown_environment', message: "no webhook environment 'not a name'" });
  });

  it('says 503 with Retry-After when auth cannot give the key', async () => {
    const res = await http.get(`${base}/webhooks/sealed`, { params: { crc_token: 'Zm9vYmFyYmF6cXV4MTIzNDU2' } });
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.data.error).toEqual({ code: 'key_unavailable', message: 'the webhook key cannot be read right now; retry later' });
  });
});

describe('X Activity API deliveries (/webhooks/:envName/xaa)', () => {
  const xaaUrl = () => `${base}/webhooks/dev/xaa`;
  /** A dm.received as the platform documents it: the Account Activity DM shape, users wrapped in `data`. */
  const xaa = (eventUuid: string, text: string) =>
    Buffer.from(
      JSON.stringify({
        data: {
          event_uuid: eventUuid,
          filter: { user_id: '4337869213' },
          event_type: 'dm.received',
          tag: 'acme',
          payload: {
            direct_message_events: [
              {
                type: 'message_create',
                id: '1000000001',
                created_timestamp: '1795683600000',
                message_create: { target: { recipient_id: '4337869213' }, sender_id: '3001969357', message_data: { text, entities: { hashtags: [], symbols: [], user_mentions: [], urls: [] } } },
              },
            ],
            users: { '3001969357': { data: { id: '3001969357', name: 'Jordan', username: 'furiouscamper' } }, '4337869213': { data: { id: '4337869213', name: 'Acme', username: 'acme' } } },
          },
        },
      }),
    );
  /** The repository's example of a platform delivery (libs/testing/fixtures/xaa). */
  const example = (name: string) => readFileSync(join(__dirname, '../../../libs/testing/fixtures/xaa', `${name}.json`));
  const postXaa = (body: Buffer, signature: string) => http.post(xaaUrl(), body, { headers: { 'content-type': 'application/json', 'x-twitter-webhooks-signature': signature } });

  it('answers the CRC with the same key as the Account Activity webhook', async () => {
    const res = await http.get(xaaUrl(), { params: { crc_token: 'a-valid-crc-token-0123' } });
    expect(res.data).toEqual(crcResponse(SECRET, 'a-valid-crc-token-0123'));
  });

  it('publishes a signed delivery as a raw activity marked xaa, its message id taken from the event uuid', async () => {
    const body = xaa('0c1d2e3f-aaaa-4bbb-8ccc-000000000001', 'where is my order?');
    expect((await postXaa(body, sign(SECRET, body))).status).toBe(200);
    const [message] = (await takeMessages()) as unknown[];
    const envelope = validateEnvelope<RawActivityPayload>(message, RawActivity);
    expect(envelope.id).toBe('xaa-0c1d2e3f-aaaa-4bbb-8ccc-000000000001');
    expect(envelope.payload).toMatchObject({ api: 'xaa', kind: 'direct_message_events', forUserId: '4337869213', delivery: { data: { event_type: 'dm.received' } } });
  });

  it('takes the documented like.create and follow.follow, routed as the likes and follows of the account', async () => {
    for (const [name, kind] of [
      ['like.create.outbound', 'favorite_events'],
      ['follow.follow', 'follow_events'],
      ['block.block', 'block_events'],
      ['oauth.revoke', 'user_event'],
    ] as const) {
      const body = example(name);
      expect({ name, status: (await postXaa(body, sign(SECRET, body))).status }).toEqual({ name, status: 200 });
      const [message] = (await takeMessages()) as unknown[];
      expect(validateEnvelope<RawActivityPayload>(message, RawActivity).payload).toMatchObject({ api: 'xaa', kind, forUserId: '7420000000000000001' });
    }
  });

  it("answers the platform's replay-finished notice with 200 and publishes nothing: it is not an account's activity", async () => {
    const notice = Buffer.from(JSON.stringify({ data: { event_uuid: 'replay-1', filter: {}, event_type: 'replay_job_status', tag: null, payload: { job_id: '1', status: 'complete' } } }));
    expect((await postXaa(notice, sign(SECRET, notice))).status).toBe(200);
    expect(await takeMessages()).toEqual([]);
  });

  it('refuses an Account Activity body on the XAA path, and a bad signature, publishing nothing', async () => {
    const aaa = dm('wrong path');
    const wrongShape = await postXaa(aaa, sign(SECRET, aaa));
    expect(wrongShape.status).toBe(400);
    expect(wrongShape.data.error.message).toMatch(/not a known X Activity API delivery/);
    const body = xaa('0c1d2e3f-aaaa-4bbb-8ccc-000000000002', 'forged');
    expect((await postXaa(body, sign('another-secret', body))).status).toBe(401);
    expect(await takeMessages()).toEqual([]);
  });
});

describe('deliveries', () => {
  it('publishes a correctly signed delivery as a raw activity, then answers 200', async () => {
    const body = dm('where is my order <42>?');
    const res = await post(body, sign(SECRET, body));
    expect(res.status).toBe(200);
    const [message] = (await takeMessages()) as unknown[];
    const envelope = validateEnvelope<RawActivityPayload>(message, RawActivity);
    expect(envelope.payload).toMatchObject({ envName: 'dev', kind: 'direct_message_events', forUserId: '4337869213' });
    expect((envelope.payload.delivery as { direct_message_events: { message_create: { message_data: { text: string } } }[] }).direct_message_events[0]!.message_create.message_data.text).toBe('where is my order <42>?');
    // the same bytes again carry the same message id, so consumers can drop the duplicate
    await post(body, sign(SECRET, body));
    const [again] = (await takeMessages()) as { id: string }[];
    expect(again!.id).toBe(envelope.id);
  });

  it('401 for a wrong or missing signature, and nothing is published', async () => {
    const body = dm('hello');
    expect((await post(body, sign('another-secret', body))).status).toBe(401);
    expect((await post(body, undefined)).data.error.code).toBe('missing_signature');
    const reserialised = Buffer.from(JSON.stringify(JSON.parse(body.toString())));
    expect((await post(dm('a < b'), sign(SECRET, reserialised))).data.error.code).toBe('invalid_signature');
    expect(await activityDepth()).toBe(0);
  });

  it('400 for a signed body that is not JSON or not a known delivery', async () => {
    const notJson = Buffer.from('hello world');
    const res = await post(notJson, sign(SECRET, notJson));
    expect(res.status).toBe(400);
    expect(res.data.error.code).toBe('invalid_json');
    const unknown = Buffer.from('{"for_user_id":123,"key":"value"}');
    const res2 = await post(unknown, sign(SECRET, unknown));
    expect(res2.status).toBe(400);
    expect(res2.data.error).toMatchObject({ code: 'unknown_delivery', message: expect.stringContaining('no known payload kind') });
    expect(await activityDepth()).toBe(0);
  });

  it('413 over the size limit', async () => {
    const big = dm('x'.repeat(5000));
    const res = await post(big, sign(SECRET, big));
    expect(res.status).toBe(413);
    expect(res.data.error.code).toBe('payload_too_large');
  });

  it('keeps the key in memory: one lookup serves many deliveries', async () => {
    const before = keyLookups;
    await Promise.all(Array.from({ length: 10 }, () => dm('again')).map((b) => post(b, sign(SECRET, b))));
    expect(keyLookups).toBe(before);
    await takeMessages();
  });

  it('503 while the broker cannot confirm, then 200 again once it is back', async () => {
    const body = dm('during an outage');
    await own.stopApp();
    try {
      const res = await post(body, sign(SECRET, body));
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
    } finally {
      await own.startApp();
    }
    await waitFor(async () => (await post(body, sign(SECRET, body))).status === 200, { timeoutMs: 30_000, intervalMs: 500, what: 'recovery' });
    const messages = (await takeMessages()) as { id: string }[];
    expect(messages.length).toBeGreaterThanOrEqual(1);
    expect(new Set(messages.map((m) => m.id)).size).toBe(1);
  }, 60_000);

  it('reports ready only while connected to the broker', async () => {
    const res = await http.get(`${base}/health/ready`);
    expect(res.status).toBe(200);
    expect(res.data.checks).toEqual({ broker: true });
  });
});
