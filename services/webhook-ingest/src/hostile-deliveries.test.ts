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
    expect(routed).toEqual(['4337869213', '4337869213', '3001969357', '1']);
  });
});
