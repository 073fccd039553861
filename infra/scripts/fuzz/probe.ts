/** One request on the wire, exactly as built (no URL normalisation), and what came back. */
import { Agent, request } from 'node:http';
import { gzipSync } from 'node:zlib';
import { sign } from '../../../libs/webhook-signature/src';
import { body as anyBody, Draw, wireValue, type Body, type Tag } from './inputs';
import type { RouteInfo } from './routes';
import type { FuzzStack, Target } from './stack';

export type Credential = 'valid' | 'none' | 'wrong';

export interface Probe {
  target: Target;
  route: RouteInfo;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  credential: Credential;
  tags: Tag[];
}

export interface Answer {
  status: number;
  text: string;
  /** A network failure (reset, hang-up) or no answer in time. */
  failure?: 'crash' | 'stall';
  detail?: string;
}

const agent = new Agent({ keepAlive: true, maxSockets: 16 });
const QUERY_NAMES = ['accountId', 'status', 'limit', 'cursor', 'include', 'crc_token', 'q', 'page', 'before', 'after', 'oauth_token', 'oauth_verifier', 'denied', 'screenName'];

function query(d: Draw, tags: Tag[]): string {
  const parts: string[] = [];
  for (let i = d.int(4); i > 0; i -= 1) {
    const value = wireValue(d);
    tags.push(...value.tags);
    parts.push(`${d.chance(0.1) ? `${d.pick(QUERY_NAMES)}[x]` : d.pick(QUERY_NAMES)}=${value.value}`);
  }
  return parts.length > 0 ? `?${parts.join('&')}` : '';
}

/** Values that exist in the seeded state, by parameter name: half the probes get past "not found". */
const EXISTING: Record<string, string> = { accountId: '1001', pageId: '1001', clientId: 'demo', taskId: 'task-1', user: '3001969357' };

function pathOf(d: Draw, route: RouteInfo, stack: FuzzStack, tags: Tag[]): string {
  return route.path.replace(/:([A-Za-z]+)/g, (_m, name: string) => {
    if (name === 'envName' && d.chance(0.8)) return stack.envName;
    if (EXISTING[name] && d.chance(0.5)) return EXISTING[name]!;
    const value = wireValue(d);
    tags.push(...value.tags);
    return value.value;
  });
}

/** A plausible body per route (by path), so that a hostile value in one field reaches past validation of the others. */
const TEMPLATES: [RegExp, () => Record<string, unknown>][] = [
  [/partner-configs/, () => ({ pageName: 'Acme' })],
  [/replies$/, () => ({ text: 'hello' })],
  [/\/order$/, () => ({ clientId: 'demo', taskId: 'task-1' })],
  [/\/clients\/:clientId$/, () => ({ enabled: true, apiKey: 'fuzz-demo-key', include: ['orderDetail'] })],
  [/\/tasks$/, () => ({ taskId: 'task-1', orderId: 'o-1' })],
  [/credentials$/, () => ({ accessToken: '1001-token', accessTokenSecret: 'secret' })],
  [/direct-messages$/, () => ({ recipientId: '3001969357', text: 'hello' })],
  [/\/webhooks$/, () => ({ url: 'http://127.0.0.1:9/webhooks/fuzz', ownerAccountId: '1001' })],
];
const templateFor = (path: string) => TEMPLATES.find(([pattern]) => pattern.test(path))?.[1] ?? (() => ({ text: 'hello' }));

/** A CRM webhook endpoint at an internal target (ssrf.ts), now and then with a hostile field beside it. */
const webhookEndpointTemplate = (d: Draw, stack: FuzzStack, tags: Tag[]) => () => {
  tags.push('ssrf');
  return { url: d.pick(stack.ssrfTargets).url, eventTypes: [] };
};

const delivery = () => ({
  for_user_id: '1001',
  direct_message_events: [{ type: 'message_create', id: String(Date.now()), created_timestamp: '1516403560557', message_create: { target: { recipient_id: '1001' }, sender_id: '3001969357', message_data: { text: 'hi' } } }],
  users: { '3001969357': { id: '3001969357', name: 'Ana', screen_name: 'ana' } },
});

/** Compresses or mislabels a body now and then: the webhook must check the bytes it received. */
function encoded(d: Draw, body: Body, headers: Record<string, string>): Buffer {
  if (!d.chance(0.06)) return body.bytes;
  body.tags.push('encoding');
  const encoding = d.pick(['gzip', 'deflate', 'br', 'identity, gzip']);
  headers['content-encoding'] = encoding;
  return encoding === 'gzip' ? gzipSync(d.chance(0.2) ? Buffer.alloc(20 * 1024 * 1024) : body.bytes) : body.bytes;
}

/** Builds one hostile request for a route of a target. */
export function buildProbe(d: Draw, target: Target, route: RouteInfo, stack: FuzzStack): Probe {
  const tags: Tag[] = [];
  const path = pathOf(d, route, stack, tags) + query(d, tags);
  const headers: Record<string, string> = {};
  const credential: Credential = d.chance(0.85) ? 'valid' : d.pick(['none', 'wrong'] as const);
  const webhook = route.path.startsWith('/webhooks/');
  if (!webhook && credential !== 'none') headers.authorization = `Bearer ${credential === 'valid' ? stack.token : 'not-a-token'}`;
  let bytes: Buffer | undefined;
  if (route.method !== 'GET' || d.chance(0.05)) {
    const ssrf = route.path === '/v1/webhook-endpoints' && route.method === 'POST';
    const template = webhook ? delivery : ssrf ? webhookEndpointTemplate(d, stack, tags) : templateFor(route.path);
    // Half the registrations are an internal target as it is, the other half with hostile values mixed in.
    const body: Body = ssrf && d.chance(0.5) ? { bytes: Buffer.from(JSON.stringify(template())), contentType: 'application/json', tags: [] } : anyBody(d, template);
    headers['content-type'] = body.contentType;
    bytes = encoded(d, body, headers);
    tags.push(...body.tags);
    if (webhook && credential !== 'none') headers['x-twitter-webhooks-signature'] = credential === 'valid' ? sign(stack.consumerSecret, d.chance(0.9) ? bytes : body.bytes) : sign('not-the-secret', bytes);
  }
  return { target, route, method: route.method, path, headers, body: bytes, credential, tags: [...new Set(tags)] };
}

/**
 * Sends a probe; a connection reset is tried once more on a new connection, because a kept-alive
 * socket the server closed after refusing an earlier body is no crash. Reset twice is one.
 */
export async function send(probe: Probe, timeoutMs: number): Promise<Answer> {
  const first = await sendOnce(probe, timeoutMs, agent);
  return first.failure === 'crash' ? sendOnce(probe, timeoutMs, false) : first;
}

function sendOnce(probe: Probe, timeoutMs: number, via: Agent | false): Promise<Answer> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port: probe.target.port, method: probe.method, path: probe.path, headers: probe.headers, agent: via, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', (error) => resolve({ status: 0, text: '', failure: 'crash', detail: error.message }));
    });
    req.on('timeout', () => {
      req.destroy();
      resolve({ status: 0, text: '', failure: 'stall', detail: `no answer in ${timeoutMs} ms` });
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      // A body refused before it was read (413, 415) may reset the socket: that is an answer, not a crash.
      if (error.code === 'EPIPE') resolve({ status: 0, text: '', detail: 'body refused before it was sent' });
      else resolve({ status: 0, text: '', failure: 'crash', detail: `${error.code ?? ''} ${error.message}` });
    });
    req.end(probe.body);
  });
}
