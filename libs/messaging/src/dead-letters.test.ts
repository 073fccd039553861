import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import amqplib from 'amqplib';
import { freshVirtualHost, type TestVirtualHost } from '@crm/testing';
import { listDeadLetters, replayDeadLetters, UnknownQueue } from './dead-letters';

const run = promisify(execFile);
const ROOT = join(__dirname, '..', '..', '..');
let vhost: TestVirtualHost;

/** A work queue whose every message fails at once (expires back into its DLQ), and its DLQ holding `count` letters. */
async function alwaysFailingQueue(name: string, count: number): Promise<void> {
  const connection = await amqplib.connect(vhost.url);
  const channel = await connection.createConfirmChannel();
  await channel.assertQueue(`${name}.dlq`, { durable: true });
  await channel.assertQueue(name, { durable: true, arguments: { 'x-message-ttl': 0, 'x-dead-letter-exchange': '', 'x-dead-letter-routing-key': `${name}.dlq` } });
  for (let i = 0; i < count; i += 1) channel.sendToQueue(`${name}.dlq`, Buffer.from(JSON.stringify({ n: i })), { messageId: `m-${i}` });
  await channel.waitForConfirms();
  await connection.close();
}

beforeAll(async () => {
  vhost = await freshVirtualHost('dead-letters');
});

afterAll(async () => {
  await vhost.drop();
});

describe('replaying dead letters', () => {
  it('replays each letter it found once, even when it fails again at once', async () => {
    await alwaysFailingQueue('failing.once', 1);
    expect(await replayDeadLetters(vhost.url, 'failing.once')).toBe(1);
    await alwaysFailingQueue('failing.three', 3);
    expect(await replayDeadLetters(vhost.url, 'failing.three')).toBe(3);
    expect(await replayDeadLetters(vhost.url, 'failing.three', 2)).toBe(2);
  });
});

describe('a queue that does not exist', () => {
  it('is a clear error, not a channel crash', async () => {
    await expect(listDeadLetters(vhost.url, 'nosuch')).rejects.toThrow(new UnknownQueue("no queue 'nosuch.dlq' on the broker: is 'nosuch' a work queue?"));
    await expect(replayDeadLetters(vhost.url, 'nosuch')).rejects.toBeInstanceOf(UnknownQueue);
  });

  it('pnpm dlq: one line and exit code 1, no stack trace', async () => {
    const failed = await run(join(ROOT, 'node_modules', '.bin', 'tsx'), [join(ROOT, 'infra', 'scripts', 'dlq.ts'), 'list', 'nosuch'], { cwd: ROOT, env: { ...process.env, AMQP_URL: vhost.url } }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed.code).toBe(1);
    expect(failed.stderr).toBe("dlq: no queue 'nosuch.dlq' on the broker: is 'nosuch' a work queue?\n");
  }, 30_000);
});
