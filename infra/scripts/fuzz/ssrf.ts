/**
 * Server-side request forgery through ticketing's CRM webhooks: endpoints registered at internal
 * addresses, in every notation, and at names resolving to loopback. A literal internal address
 * must be refused at registration; a name is accepted there and must be refused when a delivery
 * connects; a canary listening on loopback must hear nothing, and what the API records of each
 * failure must not tell the causes apart.
 */
import { createServer, type Server } from 'node:http';
import { sign } from '../../../libs/webhook-signature/src';

export interface SsrfTarget {
  url: string;
  /** The URL's host is an address (refused at registration), not a name (refused when sending). */
  literal: boolean;
}

/** A server on loopback that records every request it gets: none may come. */
export interface Canary {
  port: number;
  received: string[];
  close: () => Promise<void>;
}

export async function startCanary(port: number): Promise<Canary> {
  const received: string[] = [];
  const server: Server = createServer((req, res) => {
    received.push(`${req.method} ${req.url}`);
    res.statusCode = 200;
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const bound = (server.address() as { port: number }).port;
  return { port: bound, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The internal targets: the canary in every notation of loopback, the cloud metadata address, private and local ranges, and the platform simulator's control API. */
export function ssrfTargets(canaryPort: number, simulatorPort: number): SsrfTarget[] {
  const literal = [
    `http://127.0.0.1:${canaryPort}/hook`,
    `http://2130706433:${canaryPort}/hook`,
    `http://0x7f000001:${canaryPort}/hook`,
    `http://0x7f.1:${canaryPort}/hook`,
    `http://0177.0.0.1:${canaryPort}/hook`,
    `http://127.1:${canaryPort}/hook`,
    `http://127.0.0.1.:${canaryPort}/hook`,
    `http://[::1]:${canaryPort}/hook`,
    `http://[::ffff:127.0.0.1]:${canaryPort}/hook`,
    `http://[::ffff:7f00:1]:${canaryPort}/hook`,
    `http://[0:0:0:0:0:ffff:127.0.0.1]:${canaryPort}/hook`,
    `http://0.0.0.0:${canaryPort}/hook`,
    `http://0:${canaryPort}/hook`,
    `http://[::]:${canaryPort}/hook`,
    `https://127.0.0.1:${canaryPort}/hook`,
    'http://169.254.169.254/latest/meta-data/',
    'http://2852039166/latest/meta-data/',
    'http://[::ffff:169.254.169.254]/latest/meta-data/',
    'http://[fe80::1]/hook',
    'http://10.0.0.1/hook',
    'http://172.16.0.1/hook',
    'http://192.168.0.1/hook',
    'http://100.64.0.1/hook',
    'http://[fd00::1]/hook',
    'http://224.0.0.1/hook',
    'http://255.255.255.255/hook',
    `http://127.0.0.1:${simulatorPort}/control/direct-messages`,
  ];
  const named = [`http://localhost:${canaryPort}/hook`, `http://LOCALHOST:${canaryPort}/hook`, `http://localhost.:${canaryPort}/hook`, `https://localhost:${canaryPort}/hook`];
  return [...literal.map((url) => ({ url, literal: true })), ...named.map((url) => ({ url, literal: false }))];
}

export interface SsrfStack {
  ticketingPort: number;
  ingestPort: number;
  token: string;
  consumerSecret: string;
  envName: string;
  canary: Canary;
  targets: SsrfTarget[];
}

export interface SsrfProblem {
  route: string;
  status: number;
  what: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Registers every target once, makes a CRM event (a signed DM for the seeded account), waits
 * until each accepted endpoint's delivery has failed its attempts, and answers what went wrong:
 * a literal internal address accepted, a delivery the canary heard, a failure recorded unlike
 * the others, or a delivery never attempted.
 */
export async function ssrfRound(stack: SsrfStack, waitMs = 20_000): Promise<SsrfProblem[]> {
  const api = `http://127.0.0.1:${stack.ticketingPort}`;
  const headers = { authorization: `Bearer ${stack.token}`, 'content-type': 'application/json' };
  const problems: SsrfProblem[] = [];
  const accepted: { id: string; url: string }[] = [];
  for (const target of stack.targets) {
    const answer = await fetch(`${api}/v1/webhook-endpoints`, { method: 'POST', headers, body: JSON.stringify({ url: target.url }) });
    const body = (await answer.json().catch(() => ({}))) as { id?: string; error?: { code?: string } };
    if (target.literal && answer.status !== 400) problems.push({ route: 'POST /v1/webhook-endpoints', status: answer.status, what: `${target.url} was not refused as an internal address` });
    if (!target.literal && answer.status !== 201) problems.push({ route: 'POST /v1/webhook-endpoints', status: answer.status, what: `${target.url} (a name) was not accepted: ${JSON.stringify(body).slice(0, 120)}` });
    if (answer.status === 201 && body.id) accepted.push({ id: body.id, url: target.url });
  }

  // A DM for the seeded account: its ticket's events go to every endpoint.
  const delivery = Buffer.from(
    JSON.stringify({
      for_user_id: '1001',
      direct_message_events: [{ type: 'message_create', id: `${Date.now()}000`, created_timestamp: String(Date.now()), message_create: { target: { recipient_id: '1001' }, sender_id: '3001969357', message_data: { text: 'ssrf' } } }],
      users: { '3001969357': { id: '3001969357', name: 'Ana', screen_name: 'ana' } },
    }),
  );
  const sent = await fetch(`http://127.0.0.1:${stack.ingestPort}/webhooks/${stack.envName}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-twitter-webhooks-signature': sign(stack.consumerSecret, delivery) },
    body: delivery,
  });
  if (sent.status !== 200) problems.push({ route: `POST /webhooks/${stack.envName}`, status: sent.status, what: 'the DM that makes a CRM event was not accepted' });

  const errors = new Map<string, string[]>();
  const deadline = Date.now() + waitMs;
  while (Date.now() < deadline && errors.size < accepted.length) {
    for (const endpoint of accepted) {
      if (errors.has(endpoint.id)) continue;
      const answer = await fetch(`${api}/v1/webhook-endpoints/${endpoint.id}/failures`, { headers });
      const { items = [] } = (await answer.json()) as { items?: { lastError: string }[] };
      if (items.length > 0) errors.set(endpoint.id, items.map((item) => item.lastError));
    }
    await sleep(100);
  }
  for (const endpoint of accepted) {
    if (!errors.has(endpoint.id)) problems.push({ route: 'webhook delivery', status: 0, what: `no failed delivery to ${endpoint.url} within ${waitMs} ms` });
  }
  const recorded = new Set([...errors.values()].flat());
  if (recorded.size > 1) problems.push({ route: 'webhook delivery', status: 0, what: `failures to reach internal addresses are recorded differently: ${[...recorded].join(' | ')}` });
  if (stack.canary.received.length > 0) problems.push({ route: 'webhook delivery', status: 0, what: `the loopback canary was reached: ${stack.canary.received.slice(0, 3).join(', ')}` });
  for (const endpoint of accepted) await fetch(`${api}/v1/webhook-endpoints/${endpoint.id}`, { method: 'DELETE', headers });
  return problems;
}
