import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { capturingLogger, waitFor } from '@crm/testing';
import { UNREACHABLE } from './adapters/webhook-sender';
import { parseRanges } from './domain/webhook-addresses';
import { dmDelivery, dmEvent, userObject } from './testing/deliveries';
import { apiClient, logEntries, ticketingUnderTest, type TicketingUnderTest } from './testing/harness';

/**
 * CRM webhooks reach public addresses only, unless an operator allows a range: a literal
 * internal address is refused when registered, a name resolving to one when a delivery
 * connects, and what the API records of a failure does not tell a refused address from an
 * unreachable endpoint. Two services: one with the default policy, one allowing loopback.
 */

const QUICK = { WEBHOOK_RETRY_DELAYS_MS: [20], WEBHOOK_INTERVAL_MS: 20, WEBHOOK_TIMEOUT_MS: 3_000 };
let closed: TicketingUnderTest;
let open: TicketingUnderTest;
const closedLog = capturingLogger('ticketing-closed');
const closedApi = apiClient(() => `http://127.0.0.1:${closed.service.port}`);
const openApi = apiClient(() => `http://127.0.0.1:${open.service.port}`);

beforeAll(async () => {
  closed = await ticketingUnderTest('hooks_closed', QUICK, { logger: closedLog.logger });
  open = await ticketingUnderTest('hooks_open', { ...QUICK, WEBHOOK_ALLOWED_CIDRS: parseRanges('127.0.0.0/8') });
});

afterAll(async () => {
  await closed?.stop();
  await open?.stop();
});

/** A receiver on loopback that records every request. */
async function receiver(): Promise<{ server: Server; port: number; received: string[] }> {
  const received: string[] = [];
  const server = createServer((req, res) => {
    received.push(`${req.method} ${req.url}`);
    res.statusCode = 204;
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, received };
}
const closeServer = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const { server, port } = await receiver();
  await closeServer(server);
  return port;
}

let nextAccount = 40_000_000 + Math.floor(Math.random() * 1_000_000) * 10;
let eventSeq = 700_000;

/** Registers an endpoint for every event, then makes a ticket (ticket.created): resolves with the endpoint's id. */
async function endpointWithAnEvent(stack: TicketingUnderTest, url: string): Promise<string> {
  const api = apiClient(() => `http://127.0.0.1:${stack.service.port}`);
  const created = await api.post<{ id: string }>('/v1/webhook-endpoints', { url });
  expect(created.status).toBe(201);
  const account = String((nextAccount += 1));
  expect((await api.put(`/v1/partner-configs/${account}`, {})).status).toBe(201);
  const from = String(5_000_000 + eventSeq);
  await stack.publisher.delivery(dmDelivery(account, [dmEvent({ id: String((eventSeq += 1)), from, to: account, text: 'hello', at: Date.now() })], [userObject(from, `c${from}`, 'Customer')]));
  return created.body.id;
}

/**
 * The distinct errors the API lists for an endpoint's dead deliveries, once there are some (a
 * DM makes more than one CRM event, so one or more deliveries may have died by then).
 */
async function failuresOf(stack: TicketingUnderTest, endpointId: string): Promise<string[]> {
  const api = apiClient(() => `http://127.0.0.1:${stack.service.port}`);
  const items = await waitFor(
    async () => {
      const { body } = await api.get<{ items: { lastError: string }[] }>(`/v1/webhook-endpoints/${endpointId}/failures`);
      return body.items.length > 0 ? body.items : undefined;
    },
    { what: 'a dead delivery', timeoutMs: 20_000 },
  );
  return [...new Set(items!.map((item) => item.lastError))];
}

describe('registering a webhook endpoint', () => {
  it.each([
    ['http://127.0.0.1:8080/hook', '127.0.0.1'],
    ['http://169.254.169.254/latest/meta-data/', '169.254.169.254'],
    ['http://[::1]:3002/v1/tickets', '::1'],
    ['http://2130706433/hook', '127.0.0.1'],
    ['http://[::ffff:127.0.0.1]/hook', '127.0.0.1'],
    ['http://0x7f.1/hook', '127.0.0.1'],
    ['https://10.0.0.5/hook', '10.0.0.5'],
    ['http://[fd00::1]/hook', 'fd00::1'],
    ['http://0.0.0.0:3002/', '0.0.0.0'],
  ])('refuses %s, a literal internal address, saying how to allow it', async (url, address) => {
    const refused = await closedApi.post<{ error: { code: string; message: string } }>('/v1/webhook-endpoints', { url });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('invalid_webhook_endpoint');
    expect(refused.body.error.message).toBe(
      `/url points to a private or local address (${address}): webhooks go to public addresses only; an operator can allow the range with WEBHOOK_ALLOWED_CIDRS`,
    );
  });

  it('accepts an address of a range the operator allows, and a host name (checked when sending)', async () => {
    const allowed = await openApi.post<{ id: string }>('/v1/webhook-endpoints', { url: 'http://127.0.0.1:8080/hook' });
    expect(allowed.status).toBe(201);
    const named = await closedApi.post<{ id: string }>('/v1/webhook-endpoints', { url: 'http://localhost:8080/hook' });
    expect(named.status).toBe(201);
    await openApi.delete(`/v1/webhook-endpoints/${allowed.body.id}`);
    await closedApi.delete(`/v1/webhook-endpoints/${named.body.id}`);
  });
});

describe('sending', () => {
  it('does not connect to a name that resolves to loopback, and records the failure as any unreachable endpoint', async () => {
    const crm = await receiver();
    const endpointId = await endpointWithAnEvent(closed, `http://localhost:${crm.port}/hook`);
    expect(await failuresOf(closed, endpointId)).toEqual([UNREACHABLE]);
    expect(crm.received).toEqual([]);
    // The operator's log says why; the API does not.
    const warned = logEntries(closedLog.lines).filter((entry) => entry.message === 'webhook delivery dead after its last attempt');
    expect(String(warned[0]?.detail)).toContain('webhook address policy refused localhost (127.0.0.1)');
    await closeServer(crm.server);
  });

  it('delivers to that name when the operator allows loopback', async () => {
    const crm = await receiver();
    await endpointWithAnEvent(open, `http://localhost:${crm.port}/hook`);
    await waitFor(() => crm.received.length > 0, { what: 'a delivery' });
    expect(crm.received[0]).toBe('POST /hook');
    await closeServer(crm.server);
  });

  it('records a refused connection and a failed lookup just as a refused address', async () => {
    const refusedConnection = await endpointWithAnEvent(open, `http://127.0.0.1:${await closedPort()}/hook`);
    const unknownName = await endpointWithAnEvent(open, 'http://no-such-host.invalid/hook');
    expect(await failuresOf(open, refusedConnection)).toEqual([UNREACHABLE]);
    expect(await failuresOf(open, unknownName)).toEqual([UNREACHABLE]);
  });

  it('records the status an allowed endpoint answered', async () => {
    const crm = createServer((_req, res) => {
      res.statusCode = 503;
      res.end();
    });
    await new Promise<void>((resolve) => crm.listen(0, '127.0.0.1', resolve));
    const endpointId = await endpointWithAnEvent(open, `http://127.0.0.1:${(crm.address() as AddressInfo).port}/hook`);
    expect(await failuresOf(open, endpointId)).toEqual(['the endpoint answered 503']);
    await closeServer(crm);
  });
});
