import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseRanges } from '../domain/webhook-addresses';
import { UNREACHABLE, WebhookSender } from './webhook-sender';

/**
 * The sender checks the address each connection goes to, also for a URL naming an address
 * (registered before the policy, or while an operator allowed its range): no lookup happens for
 * it, so the connector checks it itself.
 */

const SECRET = `whsec_${Buffer.alloc(24, 7).toString('base64')}`;
let server: Server;
let port: number;
const received: string[] = [];
const senders: WebhookSender[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    received.push(`${req.method} ${req.url}`);
    res.statusCode = req.url === '/moved' ? 302 : 204;
    if (req.url === '/moved') res.setHeader('location', 'http://169.254.169.254/latest/meta-data/');
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await Promise.all(senders.map((sender) => sender.close()));
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const sender = (allowed = '') => {
  const made = new WebhookSender({ allowed: parseRanges(allowed), timeoutMs: 2_000 });
  senders.push(made);
  return made;
};

beforeEach(() => {
  received.length = 0;
});

it.each(['127.0.0.1', '2130706433', '[::ffff:127.0.0.1]', 'localhost'])('refuses http://%s by default, before any byte is sent', async (host) => {
  const outcome = await sender().send({ url: `http://${host}:${port}/hook`, secret: SECRET }, 'evt-1', '{}');
  expect(outcome).toEqual({ ok: false, reason: UNREACHABLE, detail: expect.stringContaining('webhook address policy refused') });
  expect(received).toEqual([]);
});

it('sends to loopback when the operator allows it, signed', async () => {
  expect(await sender('127.0.0.0/8').send({ url: `http://localhost:${port}/hook`, secret: SECRET }, 'evt-2', '{}')).toEqual({ ok: true });
  expect(received).toEqual(['POST /hook']);
});

it('does not follow a redirect', async () => {
  const outcome = await sender('127.0.0.0/8').send({ url: `http://127.0.0.1:${port}/moved`, secret: SECRET }, 'evt-3', '{}');
  expect(outcome).toMatchObject({ ok: false, reason: 'the endpoint answered 302' });
  expect(received).toEqual(['POST /moved']);
});

it('records a refused connection as a refused address, with the cause for the log only', async () => {
  const free = createServer();
  await new Promise<void>((resolve) => free.listen(0, '127.0.0.1', resolve));
  const closedPort = (free.address() as AddressInfo).port;
  await new Promise<void>((resolve) => free.close(() => resolve()));
  const outcome = await sender('127.0.0.0/8').send({ url: `http://127.0.0.1:${closedPort}/hook`, secret: SECRET }, 'evt-4', '{}');
  expect(outcome).toEqual({ ok: false, reason: UNREACHABLE, detail: expect.stringContaining('ECONNREFUSED') });
});
