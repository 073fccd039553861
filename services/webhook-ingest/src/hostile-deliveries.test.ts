import { gzipSync } from 'node:zlib';
import axios from 'axios';
import { testLogger } from '@crm/testing';
import { sign } from '@crm/webhook-signature';
import { startIngestHarness, type IngestHarness } from './testing/harness';

const SECRET = 'hostile-deliveries-secret';
const http = axios.create({ validateStatus: () => true });
let h: IngestHarness;

const postSigned = (text: string, env = 'dev') =>
  http.post(`${h.base}/webhooks/${env}`, Buffer.from(text), { headers: { 'content-type': 'application/json', 'x-twitter-webhooks-signature': sign(SECRET, Buffer.from(text)) } });
const dmFor = (forUserId: string) => `{"for_user_id":${forUserId},"direct_message_events":[{"type":"message_create","id":"1"}]}`;
const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

beforeAll(async () => {
  h = await startIngestHarness({ logger: testLogger('hostile-deliveries'), secret: SECRET, env: { BODY_LIMIT: '1mb' } });
});

afterAll(async () => {
  await h.stop();
});

describe('signed deliveries that are not valid', () => {
  it.each([['"abc"'], ['""'], ['-5'], ['1e30'], ['1.5'], ['"-5"'], ['"123456789012345678901"'], ['9007199254740993'], ['true'], ['null']])(
    'for_user_id %s: 400, nothing published',
    async (forUserId) => {
      const res = await postSigned(dmFor(forUserId));
      expect(res.status).toBe(400);
      expect(res.data.error).toEqual({ code: 'unknown_delivery', message: expect.stringContaining('for_user_id') });
      expect(await h.take()).toEqual([]);
    },
  );

  it.each([['"abc"'], ['""'], ['-1'], ['1e30'], ['{}']])('a revoke whose user is %s: 400, nothing published', async (userId) => {
    const res = await postSigned(`{"user_event":{"revoke":{"date_time":"2018-05-24T09:48:12+00:00","target":{"app_id":"13090192"},"source":{"user_id":${userId}}}}}`);
    expect(res.status).toBe(400);
    expect(res.data.error).toEqual({ code: 'unknown_delivery', message: expect.stringContaining('user_id') });
    expect(await h.take()).toEqual([]);
  });

  it.each([
    ['at the top', (depth: number) => `{"for_user_id":"1","direct_message_events":[{"x":${nested(depth)}}]}`],
    ['in for_user_id', (depth: number) => `{"for_user_id":${nested(depth)},"direct_message_events":[{}]}`],
    ['in objects', (depth: number) => `{"for_user_id":"1","direct_message_events":[${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}]}`],
  ])('JSON nested 5,000 deep (%s): 400 too_deep, nothing published', async (_where, build) => {
    const res = await postSigned(build(5000));
    expect(res.status).toBe(400);
    expect(res.data.error.code).toBe('too_deep');
    expect(await h.take()).toEqual([]);
  });

  it('still accepts ids as digits or safe integers, and a revoke by a numeric user', async () => {
    expect((await postSigned(dmFor('"4337869213"'))).status).toBe(200);
    expect((await postSigned(dmFor('4337869213'))).status).toBe(200);
    expect((await postSigned('{"user_event":{"revoke":{"source":{"user_id":"3001969357"}}}}')).status).toBe(200);
    expect((await postSigned(`{"for_user_id":"1","direct_message_events":[{"x":${nested(30)}}]}`)).status).toBe(200);
    const routed = ((await h.take()) as { payload: { forUserId: string } }[]).map((m) => m.payload.forUserId);
    expect([...routed].sort()).toEqual(["1", "3001969357", "4337869213", "4337869213"]);
  });
});

describe('encodings', () => {
  const body = Buffer.from(dmFor('"4337869213"'));

  it.each(['gzip', 'deflate', 'br', 'GZIP', 'identity, gzip'])('content-encoding %s: 415 whatever was signed, nothing published', async (encoding) => {
    for (const [sent, signedBytes] of [
      [gzipSync(body), body],
      [gzipSync(body), gzipSync(body)],
    ] as const) {
      const res = await http.post(`${h.base}/webhooks/dev`, sent, { headers: { 'content-type': 'application/json', 'content-encoding': encoding, 'x-twitter-webhooks-signature': sign(SECRET, signedBytes) } });
      expect(res.status).toBe(415);
      expect(res.data.error.code).toBe('unsupported_encoding');
    }
    expect(await h.take()).toEqual([]);
  });

  it('content-encoding identity is the plain body', async () => {
    const res = await http.post(`${h.base}/webhooks/dev`, body, { headers: { 'content-type': 'application/json', 'content-encoding': 'identity', 'x-twitter-webhooks-signature': sign(SECRET, body) } });
    expect(res.status).toBe(200);
    expect(await h.take()).toHaveLength(1);
  });
});

describe('unknown environments', () => {
  it('answer a signed delivery exactly as a bad signature does', async () => {
    const body = Buffer.from(dmFor('"1"'));
    const unknown = await http.post(`${h.base}/webhooks/nosuch`, body, { headers: { 'x-twitter-webhooks-signature': sign(SECRET, body) } });
    const badSignature = await http.post(`${h.base}/webhooks/dev`, body, { headers: { 'x-twitter-webhooks-signature': sign('not-the-secret', body) } });
    expect(badSignature.status).toBe(401);
    expect(unknown.status).toBe(badSignature.status);
    expect(unknown.data).toEqual(badSignature.data);
  });

  it('cost one lookup, not one per request', async () => {
    const body = Buffer.from(dmFor('"1"'));
    for (let i = 0; i < 20; i += 1) {
      expect((await http.post(`${h.base}/webhooks/unknown-env-1`, body, { headers: { 'x-twitter-webhooks-signature': sign(SECRET, body) } })).status).toBe(401);
      expect((await http.get(`${h.base}/webhooks/unknown-env-1`, { params: { crc_token: 'Zm9vYmFyYmF6cXV4MTIzNDU2' } })).status).toBe(404);
    }
    expect(h.keys.lookups.get('unknown-env-1')).toBe(1);
  });
});

describe('a rotated consumer secret', () => {
  it('accepts deliveries signed by the new or, during the overlap, the previous secret; the CRC uses the new one', async () => {
    h.keys.environments.set('rotating', { consumerSecret: 'the-new-secret', previousConsumerSecret: 'the-old-secret' });
    const body = Buffer.from(dmFor('"4337869213"'));
    const post = (secret: string) => http.post(`${h.base}/webhooks/rotating`, body, { headers: { 'x-twitter-webhooks-signature': sign(secret, body) } });
    expect((await post('the-new-secret')).status).toBe(200);
    expect((await post('the-old-secret')).status).toBe(200);
    expect((await post('another-secret')).status).toBe(401);
    const crc = await http.get(`${h.base}/webhooks/rotating`, { params: { crc_token: 'Zm9vYmFyYmF6cXV4MTIzNDU2' } });
    expect(crc.data.response_token).toBe(sign('the-new-secret', 'Zm9vYmFyYmF6cXV4MTIzNDU2'));
    expect(await h.take()).toHaveLength(2);
  });
});
