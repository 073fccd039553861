import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import axios from 'axios';
import { closeServer, listen, portOf } from '@crm/http';
import { testLogger, TINY_PNG } from '@crm/testing';
import { createSimulatorApp } from '../app';
import { loadSimulatorConfig } from '../config';
import { hmacSha1, percentEncode, signatureBaseString } from './oauth1';

const KEY = 'media-consumer-key';
const SECRET = 'media-consumer-secret';
const http = axios.create({ validateStatus: () => true });
let server: Server;
let base: string;

beforeAll(async () => {
  const config = loadSimulatorConfig({ SOCIAL_CONSUMER_KEY: KEY, SOCIAL_CONSUMER_SECRET: SECRET, SOCIAL_ENV_NAME: 'test', WEBHOOK_URL: 'http://127.0.0.1:9/none' });
  server = await listen(createSimulatorApp({ config, logger: testLogger('sim') }), 0, '127.0.0.1');
  base = `http://127.0.0.1:${portOf(server)}`;
});

afterAll(async () => {
  await closeServer(server);
});

type Token = { key: string; secret: string };

/** OAuth 1.0a over the URL and query only: multipart and JSON bodies are not signed. */
function authorization(method: string, url: string, token: Token): string {
  const oauth: Record<string, string> = {
    oauth_consumer_key: KEY,
    oauth_nonce: randomBytes(12).toString('hex'),
    oauth_signature_method: 'HMAC-SHA1',
    oauth_timestamp: String(Math.floor(Date.now() / 1000)),
    oauth_version: '1.0',
    oauth_token: token.key,
  };
  const target = new URL(url);
  const signature = hmacSha1(signatureBaseString(method, `${target.origin}${target.pathname}`, [...Object.entries(oauth), ...target.searchParams]), SECRET, token.secret);
  return `OAuth ${Object.entries({ ...oauth, oauth_signature: signature })
    .map(([k, v]) => `${k}="${percentEncode(v)}"`)
    .join(', ')}`;
}

async function account(screenName: string) {
  const id = (await http.post(`${base}/control/platform/users`, { screenName })).data.id_str as string;
  const res = await http.post(`${base}/control/platform/tokens`, { user: `@${screenName}` });
  return { id, token: { key: res.data.oauthToken as string, secret: res.data.oauthTokenSecret as string } };
}

async function call(token: Token, method: 'GET' | 'POST', path: string, body?: unknown) {
  const url = `${base}${path}`;
  const isForm = body instanceof FormData;
  return http.request({ method, url, data: body, headers: { authorization: authorization(method, url, token), ...(body === undefined || isForm ? {} : { 'content-type': 'application/json' }) } });
}

function imageForm(bytes: Buffer, category = 'dm_image', type = 'image/png'): FormData {
  const form = new FormData();
  form.append('media', new Blob([bytes], { type }), 'picture');
  form.append('media_category', category);
  return form;
}

describe('media upload and DMs with attachments', () => {
  it('uploads an image in one multipart request and answers its id, key, size and pixels', async () => {
    const me = await account('media_one');
    const res = await call(me.token, 'POST', '/2/media/upload', imageForm(TINY_PNG));
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ data: { id: expect.stringMatching(/^[0-9]+$/), media_key: `3_${res.data.data.id}`, size: TINY_PNG.length, expires_after_secs: 86400, image: { image_type: 'image/png', w: 2, h: 3 } } });
  });

  it('takes the image base64-encoded in a JSON body too', async () => {
    const me = await account('media_json');
    const res = await call(me.token, 'POST', '/2/media/upload', { media: TINY_PNG.toString('base64'), media_category: 'dm_image' });
    expect(res.status).toBe(200);
    expect(res.data.data.size).toBe(TINY_PNG.length);
  });

  it('refuses what is not an image, an image too large and an unknown category (400, as problem details)', async () => {
    const me = await account('media_refused');
    const text = await call(me.token, 'POST', '/2/media/upload', imageForm(Buffer.from('not an image at all'), 'dm_image', 'image/png'));
    expect(text.status).toBe(400);
    expect(text.data).toMatchObject({ type: 'https://api.x.com/2/problems/invalid-request', detail: expect.stringContaining('Unsupported media type') });
    const huge = Buffer.concat([TINY_PNG, Buffer.alloc(5 * 1024 * 1024)]);
    const tooLarge = await call(me.token, 'POST', '/2/media/upload', imageForm(huge));
    expect(tooLarge.status).toBe(400);
    expect(tooLarge.data.detail).toBe('File size exceeds 5242880 bytes.');
    const overBody = await call(me.token, 'POST', '/2/media/upload', imageForm(Buffer.concat([TINY_PNG, Buffer.alloc(25 * 1024 * 1024)])));
    expect(overBody.status).toBe(400);
    expect(overBody.data.detail).toBe('File size exceeds 25165824 bytes: upload larger media in chunks.');
    const category = await call(me.token, 'POST', '/2/media/upload', imageForm(TINY_PNG, 'dm_banner'));
    expect(category.status).toBe(400);
    expect(category.data.detail).toContain('media_category must be one of');
  });

  it('uploads in chunks: initialize, append segments, finalize', async () => {
    const me = await account('media_chunks');
    const init = await call(me.token, 'POST', '/2/media/upload/initialize', { media_type: 'image/png', total_bytes: TINY_PNG.length, media_category: 'dm_image' });
    expect(init.status).toBe(200);
    const id = init.data.data.id as string;
    for (const [index, part] of [TINY_PNG.subarray(0, 20), TINY_PNG.subarray(20)].entries()) {
      const form = new FormData();
      form.append('segment_index', String(index));
      form.append('media', new Blob([part]), 'chunk');
      expect((await call(me.token, 'POST', `/2/media/upload/${id}/append`, form)).status).toBe(200);
    }
    const done = await call(me.token, 'POST', `/2/media/upload/${id}/finalize`);
    expect(done.status).toBe(200);
    expect(done.data.data).toMatchObject({ id, size: TINY_PNG.length, image: { image_type: 'image/png' } });
    expect((await call(me.token, 'POST', `/2/media/upload/${id}/finalize`)).status).toBe(400);
  });

  it('sends a DM with the uploaded image: the DM events show its media key; media not the sender’s is refused', async () => {
    const me = await account('media_sender');
    const other = await account('media_recipient');
    const mediaId = (await call(me.token, 'POST', '/2/media/upload', imageForm(TINY_PNG))).data.data.id as string;
    const sent = await call(me.token, 'POST', `/2/dm_conversations/with/${other.id}/messages`, { attachments: [{ media_id: mediaId }] });
    expect(sent.status).toBe(201);
    const eventId = sent.data.data.dm_event_id as string;
    const events = await call(other.token, 'GET', `/2/dm_events/${eventId}?dm_event.fields=attachments,sender_id`);
    expect(events.data).toEqual({ data: { id: eventId, event_type: 'MessageCreate', text: '', sender_id: me.id, attachments: { media_keys: [`3_${mediaId}`] } } });
    const v1 = await call(other.token, 'GET', `/1.1/direct_messages/events/show.json?id=${eventId}`);
    expect(v1.data.event.message_create.message_data.attachment).toEqual({ type: 'media', media: { id: Number(mediaId), id_str: mediaId, type: 'photo', media_url_https: expect.stringContaining(mediaId) } });

    const refused = await call(other.token, 'POST', `/2/dm_conversations/with/${me.id}/messages`, { text: 'yours?', attachments: [{ media_id: mediaId }] });
    expect(refused.status).toBe(400);
    expect(refused.data.detail).toBe(`attachments[0].media_id ${mediaId} is not media the sender uploaded.`);
    const unknown = await call(me.token, 'POST', `/2/dm_conversations/with/${other.id}/messages`, { text: 'hi', attachments: [{ media_id: '12345' }] });
    expect(unknown.status).toBe(400);
  });

  it('sends an image into a conversation named by its id, and answers an upload\'s state', async () => {
    const me = await account('media_conv_me');
    const other = await account('media_conv_you');
    const mediaId = (await call(me.token, 'POST', '/2/media/upload', imageForm(TINY_PNG))).data.data.id as string;
    expect((await call(me.token, 'GET', `/2/media/upload?command=STATUS&media_id=${mediaId}`)).data).toEqual({
      data: expect.objectContaining({ id: mediaId, processing_info: { state: 'succeeded', progress_percent: 100 } }),
    });
    const first = await call(me.token, 'POST', `/2/dm_conversations/with/${other.id}/messages`, { text: 'hello' });
    const conversation = first.data.data.dm_conversation_id as string;
    const sent = await call(me.token, 'POST', `/2/dm_conversations/${conversation}/messages`, { attachments: [{ media_id: mediaId }] });
    expect(sent.status).toBe(201);
    expect(sent.data.data.dm_conversation_id).toBe(conversation);
    const event = await call(other.token, 'GET', `/2/dm_events/${sent.data.data.dm_event_id}?dm_event.fields=attachments,sender_id`);
    expect(event.data.data).toMatchObject({ sender_id: me.id, attachments: { media_keys: [`3_${mediaId}`] } });
    const stranger = await account('media_conv_x');
    expect((await call(stranger.token, 'POST', `/2/dm_conversations/${conversation}/messages`, { text: 'let me in' })).status).toBe(404);
  });
});
