/**
 * An image in a DM: uploaded through auth to the platform (`POST /v1/accounts/:id/media`), then
 * named by the DM, over HTTP and as a command on the broker; what the platform would refuse is
 * refused first in words a person can act on.
 */
import { randomUUID } from 'node:crypto';
import axios from 'axios';
import { Exchanges, SocialCommand, SYSTEM_TOPOLOGY } from '@crm/contracts';
import { Broker, makeEnvelope, Publisher } from '@crm/messaging';
import { testLogger, TINY_PNG } from '@crm/testing';
import { runCli } from './cli-commands';
import { startHarness, type Harness } from './testing/harness';

let h: Harness;
let accountId: string;

beforeAll(async () => {
  h = await startHarness({ prefix: 'auth_media' });
  accountId = await h.connect('@acme_media');
});

afterAll(async () => {
  await h?.stop();
});

const accountPath = (path: string) => `/v1/accounts/${accountId}${path}`;
const base64 = (bytes: Buffer) => bytes.toString('base64');

async function credential(scopes: string): Promise<string> {
  const out: string[] = [];
  const code = await runCli(['credentials', 'create', '--name', `media ${scopes}`, '--scopes', scopes], h.config, testLogger(), { out: (line) => out.push(line), err: () => undefined });
  expect(code).toBe(0);
  return (JSON.parse(out.join('')) as { token: string }).token;
}

describe('an image in a DM', () => {
  it('uploads the image to the platform as the account and sends it with the DM', async () => {
    const customer = (await h.sim.post('/control/platform/users', { screenName: 'media_ana' })).data.id_str as string;
    const uploaded = await h.crm.post(accountPath('/media'), { media: base64(TINY_PNG) });
    expect(uploaded.status).toBe(200);
    const mediaId = uploaded.data.platformId as string;
    expect(uploaded.data).toMatchObject({ action: 'upload_media', outcome: 'succeeded', platformId: expect.stringMatching(/^[0-9]+$/), data: { data: { id: mediaId, size: TINY_PNG.length } } });
    const [upload] = await h.platformRequests('/2/media/upload', 'POST');
    expect(upload).toMatchObject({ caller: { kind: 'user', userId: accountId }, status: 200, json: { media_category: 'dm_image', media: base64(TINY_PNG) } });

    const sent = await h.crm.post(accountPath('/direct-messages'), { recipientId: customer, mediaId, text: 'your label' });
    expect(sent.status).toBe(200);
    const [dm] = await h.platformRequests(`/2/dm_conversations/with/${customer}/messages`, 'POST');
    expect(dm).toMatchObject({ json: { text: 'your label', attachments: [{ media_id: mediaId }] }, status: 201 });
    const imageOnly = await h.crm.post(accountPath('/direct-messages'), { recipientId: customer, mediaId });
    expect(imageOnly.status).toBe(200);
  });

  it('sends the image named by a send_dm command from the broker (as ticketing sends a reply)', async () => {
    const customer = (await h.sim.post('/control/platform/users', { screenName: 'media_bo' })).data.id_str as string;
    const mediaId = (await h.crm.post(accountPath('/media'), { media: base64(TINY_PNG) })).data.platformId as string;
    const broker = new Broker({ url: h.vhost.url, name: 'media-test', logger: testLogger('media-test') });
    const publisher = new Publisher(broker, SYSTEM_TOPOLOGY);
    try {
      const commandId = `reply-${randomUUID()}`;
      const payload = { commandId, action: 'send_dm' as const, accountId, input: { recipientId: customer, mediaId }, context: { ticketId: 't-1', activityId: 'a-1' } };
      await publisher.publish(Exchanges.socialCommands, 'send_dm', makeEnvelope(SocialCommand, 'ticketing', payload));
      const result = await h.waitForPublished('send_dm.succeeded', (p) => p.commandId === commandId);
      expect(result.envelope.payload).toMatchObject({ outcome: 'succeeded', platformId: expect.stringMatching(/^[0-9]+$/) });
      const [dm] = await h.platformRequests(`/2/dm_conversations/with/${customer}/messages`, 'POST');
      expect(dm).toMatchObject({ json: { attachments: [{ media_id: mediaId }] }, status: 201 });
    } finally {
      await publisher.close();
      await broker.close();
    }
  });

  it('refuses a file that is not an image (415) and an image over 5 MB (413) with what to do, before the platform hears of it', async () => {
    const before = (await h.platformRequests('/2/media/upload', 'POST')).length;
    const text = await h.crm.post(accountPath('/media'), { media: base64(Buffer.from('a plain text file, not a picture')) });
    expect(text.status).toBe(415);
    expect(text.data.error).toEqual({ code: 'unsupported_image_type', message: 'This file is not an image a DM can carry: choose a JPEG, PNG, WEBP or GIF image.' });
    const large = await h.crm.post(accountPath('/media'), { media: base64(Buffer.concat([TINY_PNG, Buffer.alloc(6 * 1024 * 1024)])) });
    // The status with auth's log of an unexpected failure, so a 500 shows its cause.
    expect({ status: large.status, failures: h.logLines.filter((line) => line.includes('request failed')) }).toEqual({ status: 413, failures: [] });
    expect(large.data.error).toEqual({ code: 'image_too_large', message: 'This image is 6.0 MB; a DM can carry images of at most 5.0 MB: make it smaller and attach it again.' });
    expect((await h.platformRequests('/2/media/upload', 'POST')).length).toBe(before);
  });

  it('refuses media that is not base64 with what to send instead (400)', async () => {
    const answer = await h.crm.post(accountPath('/media'), { media: `${base64(TINY_PNG)}!*` });
    expect(answer.status).toBe(400);
    expect(answer.data.error.message).toContain('body.media must be the image encoded in base64');
  });

  it('refuses a DM with neither text nor image, and media the platform does not know (400 from the platform)', async () => {
    const empty = await h.crm.post(accountPath('/direct-messages'), { recipientId: '42' });
    expect(empty.status).toBe(400);
    const unknown = await h.crm.post(accountPath('/direct-messages'), { recipientId: '42', mediaId: '777' });
    expect(unknown.status).toBe(400);
    expect(unknown.data.error.message).toContain('attachments[0].media_id 777 is not media the sender uploaded');
  });

  it('takes tickets:write to upload, as every write on behalf of an account', async () => {
    const reader = axios.create({ baseURL: h.authUrl, validateStatus: () => true, headers: { authorization: `Bearer ${await credential('tickets:read')}` } });
    const refused = await reader.post(accountPath('/media'), { media: base64(TINY_PNG) });
    expect(refused.status).toBe(403);
    expect(refused.data.error).toEqual({ code: 'missing_scope', message: 'this credential lacks the scope tickets:write' });
  });
});
