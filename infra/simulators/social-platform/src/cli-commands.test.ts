import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { closeServer, listen } from '@crm/http';
import { testLogger } from '@crm/testing';
import { createSimulatorApp } from './app';
import { EXIT, runCli } from './cli-commands';
import { loadSimulatorConfig } from './config';
import { deadUrl, startReceiver, type TestReceiver } from './test-receiver';

const SECRET = 'cli-test-consumer-secret';

describe('CLI against a running simulator', () => {
  let receiver: TestReceiver;
  let server: Server;
  let simulatorUrl: string;
  const run = async (...argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(argv, { simulatorUrl, io: { out: (l) => out.push(l), err: (l) => err.push(l) } });
    return { code, out: out.join('\n'), err: err.join('\n') };
  };

  beforeAll(async () => {
    receiver = await startReceiver(SECRET);
    const config = loadSimulatorConfig({ SOCIAL_CONSUMER_SECRET: SECRET, WEBHOOK_URL: receiver.url });
    server = await listen(createSimulatorApp({ config, logger: testLogger() }), 0, '127.0.0.1');
    simulatorUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await closeServer(server);
    await receiver.close();
  });

  it('dm: a customer DM reaches the webhook, and the summary says so', async () => {
    const result = await run('dm', '--from', '@ana', '--to', '1001', 'where is my order 42?');
    expect(result.code).toBe(EXIT.ok);
    expect(result.out).toMatch(/^sent DM [0-9]{18,19} from @ana to 1001: webhook answered 200$/);
    expect(receiver.received.at(-1)!.raw.toString('utf8')).toContain('where is my order 42?');
  });

  it('dm: exits non-zero when the webhook refuses', async () => {
    const result = await run('dm', '--from', '@ana', '--to', '1001', '--signature', 'wrong', 'hi');
    expect(result.code).toBe(EXIT.failed);
    expect(result.err).toMatch(/webhook answered 401/);
  });

  it('dm: exits non-zero when the webhook does not answer', async () => {
    const result = await run('dm', '--from', '@ana', '--to', '1001', '--webhook-url', await deadUrl(), 'hi');
    expect(result.code).toBe(EXIT.failed);
    expect(result.err).toMatch(/DM not delivered: could not reach/);
  });

  it('dm: a usage mistake is reported as such', async () => {
    expect((await run('dm', '--from', '@ana', 'hi')).code).toBe(EXIT.usage);
    expect((await run('frobnicate')).code).toBe(EXIT.usage);
  });

  it('crc: valid against the configured webhook, failing against a dead one', async () => {
    expect(await run('crc')).toMatchObject({ code: EXIT.ok, out: `CRC check of ${receiver.url}: valid` });
    const dead = await run('crc', '--url', await deadUrl());
    expect(dead.code).toBe(EXIT.failed);
    expect(dead.err).toMatch(/INVALID/);
  });

  it('deliveries: lists what was sent', async () => {
    const result = await run('deliveries', '--limit', '2');
    expect(result.code).toBe(EXIT.ok);
    expect(result.out.split('\n')).toHaveLength(2);
    expect(result.out).toMatch(/direct_message_events {2}for 1001 .* signature valid {2}-> no answer/);
    expect(result.out.split('\n')[1]).toMatch(/signature wrong {2}-> 401$/);
  });

  it('activity: any kind reaches the webhook, signed; the summary names it', async () => {
    const mention = await run('activity', 'mention', '--account', '1001', '--user', '@ana', 'where', 'is', 'my', 'order?');
    expect(mention).toMatchObject({ code: EXIT.ok });
    expect(mention.out).toMatch(/^sent mention \(tweet_create_events [0-9]{18,19}\) for 1001: webhook answered 200$/);
    const sent = JSON.parse(receiver.received.at(-1)!.raw.toString('utf8')) as { tweet_create_events: { text: string }[] };
    expect(sent.tweet_create_events[0]!.text).toMatch(/^@user0*1001 where is my order\?$/);
    expect(receiver.received.at(-1)!.signatureValid).toBe(true);

    const like = await run('activity', 'like', '--account', '1001', '--user', '@ana', '--by-account', '--post', '123', '--post-author', '@bob');
    expect(like.code).toBe(EXIT.ok);
    const liked = JSON.parse(receiver.received.at(-1)!.raw.toString('utf8')) as { favorite_events: { user: { id_str: string }; favorited_status: { id_str: string; user: { screen_name: string } } }[] };
    expect(liked.favorite_events[0]).toMatchObject({ user: { id_str: '1001' }, favorited_status: { id_str: '123', user: { screen_name: 'bob' } } });

    expect((await run('activity', 'read', '--account', '1001', '--user', '@ana', '--last-read', '55')).code).toBe(EXIT.ok);
    expect((await run('activity', 'revoke', '--account', '1001')).code).toBe(EXIT.ok);
  });

  it('activity: a usage mistake names what is missing', async () => {
    expect((await run('activity', '--account', '1001')).code).toBe(EXIT.usage);
    const reply = await run('activity', 'reply', '--account', '1001', '--user', '@ana', 'hi');
    expect(reply.code).toBe(EXIT.usage);
    expect(reply.err).toMatch(/`inReplyTo` is required for this kind/);
    const unknown = await run('activity', 'poke', '--account', '1001');
    expect(unknown.err).toMatch(/`kind` must be one of post, reply/);
  });

  it('says how to start the simulator when it is not running', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const base = new URL(await deadUrl()).origin;
    const code = await runCli(['crc'], { simulatorUrl: base, io: { out: (l) => out.push(l), err: (l) => err.push(l) } });
    expect(code).toBe(EXIT.unreachable);
    expect(err.join('\n')).toMatch(/not answering at .*pnpm start/);
  });
});
