/**
 * A tenant's limited credential against the rest of the stack: directly and through the
 * console (signed in with it), it must get exactly what its grant allows. Another account's
 * tickets, configuration, DMs and events, another tracking client's task and an OAuth
 * connection stay out of reach in every spelling of the request; its event streams carry only
 * its account; concurrent identical replies under one Idempotency-Key make one reply.
 */
import { randomBytes } from 'node:crypto';
import { sign } from '../../../libs/webhook-signature/src';
import { testPool } from '@crm/testing';
import { ApiCredentialStore } from '../../../services/auth/src/adapters/api-credentials';
import type { Draw } from './inputs';

export interface RightsStack {
  ports: { ingest: number; ticketing: number; auth: number; tracking: number; console: number };
  /** A bootstrap token (admin): seeds the state the tenant must not reach. */
  token: string;
  consumerSecret: string;
  envName: string;
  authDatabaseUrl: string;
}

export interface RightsProblem {
  verdict: 'cross_tenant' | 'duplicate';
  route: string;
  status: number;
  what: string;
}

const OWN = '1001';
const FOREIGN = '2002';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Answer {
  status: number;
  text: string;
}

interface Caller {
  /** Where the request went: straight to a service, or through the console's /api. */
  via: 'direct' | 'console';
  send: (method: string, path: string, body?: unknown, headers?: Record<string, string>) => Promise<Answer>;
}

async function answerOf(response: Response): Promise<Answer> {
  return { status: response.status, text: await response.text() };
}

function bearer(port: number, token: string): Caller['send'] {
  return async (method, path, body, headers = {}) =>
    answerOf(
      await fetch(`http://127.0.0.1:${port}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
        redirect: 'manual',
      }),
    );
}

/** Signs the tenant in to the console with its credential: the cookie and CSRF token every later call carries. */
async function consoleCaller(port: number, token: string): Promise<Caller> {
  const base = `http://127.0.0.1:${port}`;
  const signIn = await fetch(`${base}/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token }) });
  if (signIn.status !== 201) throw new Error(`the console refused the tenant's sign-in: ${signIn.status} ${await signIn.text()}`);
  const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0]!;
  const session = (await (await fetch(`${base}/api/session`, { headers: { cookie } })).json()) as { csrfToken: string };
  return {
    via: 'console',
    send: async (method, path, body, headers = {}) =>
      answerOf(
        await fetch(`${base}${path}`, {
          method,
          headers: { cookie, 'x-csrf-token': session.csrfToken, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
          body: body === undefined ? undefined : JSON.stringify(body),
          redirect: 'manual',
        }),
      ),
  };
}

async function deliverDm(stack: RightsStack, accountId: string, text: string): Promise<void> {
  const customer = accountId === OWN ? '3001969357' : '3001969358';
  const bytes = Buffer.from(
    JSON.stringify({
      for_user_id: accountId,
      direct_message_events: [{ type: 'message_create', id: `${Date.now()}${randomBytes(3).readUIntBE(0, 3)}`, created_timestamp: String(Date.now()), message_create: { target: { recipient_id: accountId }, sender_id: customer, message_data: { text } } }],
      users: { [customer]: { id: customer, name: 'Customer', screen_name: `customer${customer.slice(-2)}` } },
    }),
  );
  const sent = await fetch(`http://127.0.0.1:${stack.ports.ingest}/webhooks/${stack.envName}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-twitter-webhooks-signature': sign(stack.consumerSecret, bytes) },
    body: bytes,
  });
  if (sent.status !== 200) throw new Error(`a seeding DM for ${accountId} was refused: ${sent.status}`);
}

/** The ticket of an account holding `text`, once recorded. */
async function ticketHolding(admin: Caller['send'], accountId: string, text: string): Promise<string> {
  for (let tries = 0; tries < 100; tries += 1) {
    const list = await admin('GET', `/v1/tickets?accountId=${accountId}&q=${encodeURIComponent(text)}`);
    const id = (JSON.parse(list.text) as { items?: { id: string }[] }).items?.[0]?.id;
    if (id) return id;
    await sleep(100);
  }
  throw new Error(`no ticket of ${accountId} holds "${text}"`);
}

interface Case {
  service: 'ticketing' | 'auth' | 'tracking' | 'console';
  method: string;
  path: string;
  body?: unknown;
  /** A list: it may answer 2xx, holding nothing of the other tenant. */
  list?: boolean;
  /** Answered as for a tracking client that does not exist (an order link): refused (422 order_client_unknown, or 404); a 2xx must say client_not_found. */
  asUnknownClient?: boolean;
}

/** What the tenant must not reach: straight at each service, and the same through the console. */
function cases(own: string, foreign: string, secondOwn: string): { direct: Case[]; console: Case[] } {
  const direct: Case[] = [
    { service: 'ticketing', method: 'GET', path: `/v1/tickets/${foreign}` },
    { service: 'ticketing', method: 'GET', path: `/v1/tickets?accountId=${FOREIGN}`, list: true },
    { service: 'ticketing', method: 'GET', path: '/v1/tickets', list: true },
    { service: 'ticketing', method: 'GET', path: `/v1/tickets?q=${FOREIGN}`, list: true },
    { service: 'ticketing', method: 'POST', path: `/v1/tickets/${foreign}/replies`, body: { text: 'not yours' } },
    { service: 'ticketing', method: 'POST', path: `/v1/tickets/${own}/merge`, body: { sourceIds: [foreign] } },
    { service: 'ticketing', method: 'POST', path: `/v1/tickets/${secondOwn}/merge`, body: { sourceIds: [own, foreign] } },
    { service: 'ticketing', method: 'PATCH', path: '/v1/tickets', body: { ids: [foreign], status: 'solved' } },
    { service: 'ticketing', method: 'PATCH', path: `/v1/tickets/${foreign}`, body: { status: 'solved' } },
    { service: 'ticketing', method: 'GET', path: `/v1/partner-configs/${FOREIGN}` },
    { service: 'ticketing', method: 'PUT', path: `/v1/partner-configs/${FOREIGN}`, body: { pageName: 'taken over' } },
    { service: 'ticketing', method: 'GET', path: `/v1/tickets/${foreign}/order/live` },
    { service: 'ticketing', method: 'PUT', path: `/v1/tickets/${own}/order`, body: { clientId: 'other', taskId: 'task-1' }, asUnknownClient: true },
    { service: 'ticketing', method: 'GET', path: `/v1/contacts?accountId=${FOREIGN}`, list: true },
    { service: 'auth', method: 'GET', path: `/v1/accounts/${FOREIGN}` },
    { service: 'auth', method: 'POST', path: `/v1/accounts/${FOREIGN}/direct-messages`, body: { recipientId: '3001969358', text: 'not yours' } },
    { service: 'auth', method: 'POST', path: '/v1/connections' },
    { service: 'auth', method: 'POST', path: '/v1/sessions', body: { launch: { ticketId: foreign } } },
    { service: 'tracking', method: 'GET', path: '/v1/clients/other/tasks/task-1/live' },
    { service: 'tracking', method: 'GET', path: '/v1/clients/other' },
  ];
  const viaConsole: Case[] = [
    { service: 'console', method: 'GET', path: `/api/tickets/${foreign}` },
    { service: 'console', method: 'GET', path: `/api/tickets?accountId=${FOREIGN}`, list: true },
    { service: 'console', method: 'GET', path: '/api/tickets', list: true },
    { service: 'console', method: 'POST', path: `/api/tickets/${foreign}/replies`, body: { text: 'not yours' } },
    { service: 'console', method: 'POST', path: `/api/tickets/${own}/merge`, body: { sourceIds: [foreign] } },
    { service: 'console', method: 'PATCH', path: `/api/tickets/${foreign}`, body: { status: 'solved' } },
    { service: 'console', method: 'GET', path: `/api/partner-configs/${FOREIGN}` },
    { service: 'console', method: 'PUT', path: `/api/partner-configs/${FOREIGN}`, body: { pageName: 'taken over' } },
    { service: 'console', method: 'GET', path: `/api/tickets/${foreign}/order/live` },
    { service: 'console', method: 'PUT', path: `/api/tickets/${own}/order`, body: { clientId: 'other', taskId: 'task-1' }, asUnknownClient: true },
    { service: 'console', method: 'POST', path: '/api/connections' },
    { service: 'console', method: 'GET', path: '/api/accounts', list: true },
  ];
  return { direct, console: viaConsole };
}

/** Another spelling of the same request: the path's case, encoding and slashes, the query's repeats, a forged forwarding header. */
function variant(d: Draw, path: string): { path: string; headers: Record<string, string> } {
  const headers: Record<string, string> = {};
  let spelled = path;
  switch (d.int(8)) {
    case 0:
      spelled = spelled.replace(/\/([^/?]+)(\?|$)/, (_m, last: string, end: string) => `/${last.toUpperCase()}${end}`);
      break;
    case 1:
      spelled = spelled.includes('?') ? spelled.replace('?', '/?') : `${spelled}/`;
      break;
    case 2:
      spelled = spelled.replace(FOREIGN, `%3${FOREIGN[0]}${FOREIGN.slice(1)}`);
      break;
    case 3:
      spelled = `${spelled}${spelled.includes('?') ? '&' : '?'}accountId=${OWN}&accountId=${FOREIGN}`;
      break;
    case 4:
      spelled = spelled.replace(/^\/(v1|api)\//, '/$1//');
      break;
    case 5:
      spelled = spelled.replace(/^\/(v1|api)\//, `/$1/x/../`);
      break;
    case 6:
      headers['x-forwarded-for'] = '127.0.0.1';
      headers['x-forwarded-host'] = 'localhost';
      break;
    default:
      spelled = `${spelled}${spelled.includes('?') ? '&' : '?'}accountIds=${FOREIGN}`;
  }
  return { path: spelled, headers };
}

/**
 * A 2xx to a request for the other tenant's things, an answer holding its DM text, or a list
 * naming its ticket (an error may repeat the id the request gave; a list may not hold it).
 */
function breach(kase: Case, answer: Answer, dmTexts: string[], foreignTicket: string): string | null {
  if (dmTexts.some((text) => answer.text.includes(text))) return "the answer holds the other tenant's DM text";
  if (kase.list && answer.text.includes(foreignTicket)) return "the list holds the other tenant's ticket";
  if (kase.asUnknownClient && answer.status >= 200 && answer.status < 300) {
    return answer.text.includes('"reason":"client_not_found"') ? null : 'an order link to a tracking client outside the credential was not answered as one to an unknown client';
  }
  if (!kase.list && answer.status >= 200 && answer.status < 300) return `answered ${answer.status} to a request outside the credential's rights`;
  return null;
}

/** Reads a server-sent-events stream into a string until aborted. */
function collect(response: Response, into: { text: string }): void {
  const reader = response.body?.getReader();
  if (!reader) return;
  const decoder = new TextDecoder();
  const pump = (): Promise<void> =>
    reader.read().then(
      ({ done, value }) => {
        if (done) return;
        into.text += decoder.decode(value, { stream: true });
        return pump();
      },
      () => undefined,
    );
  void pump();
}

/** The event streams, straight and through the console: the tenant's own DM arrives, the other's never. */
async function streamProblems(stack: RightsStack, token: string, admin: Caller['send'], secrets: { marker: string; foreign: string }): Promise<RightsProblem[]> {
  const problems: RightsProblem[] = [];
  const { marker, foreign } = secrets;
  const streams = [
    { via: 'direct', url: `http://127.0.0.1:${stack.ports.ticketing}/v1/events`, headers: { authorization: `Bearer ${token}` } },
    { via: 'direct ?accountId=2002', url: `http://127.0.0.1:${stack.ports.ticketing}/v1/events?accountId=${FOREIGN}`, headers: { authorization: `Bearer ${token}` } },
  ];
  const abort = new AbortController();
  const heard = streams.map(() => ({ text: '' }));
  const opened = await Promise.all(streams.map((stream) => fetch(stream.url, { headers: stream.headers, signal: abort.signal }).catch(() => null)));
  opened.forEach((response, index) => {
    if (!response) return;
    if (response.status === 200) collect(response, heard[index]!);
    else void response.body?.cancel();
  });
  const consoleStream = { text: '' };
  const consoleEvents = await consoleEventsOf(stack, token, abort.signal);
  if (consoleEvents) collect(consoleEvents, consoleStream);
  const laterMarker = `foreign-${randomBytes(6).toString('hex')}`;
  const laterOwn = `own-${randomBytes(6).toString('hex')}`;
  await deliverDm(stack, FOREIGN, laterMarker);
  await deliverDm(stack, OWN, laterOwn);
  await ticketHolding(admin, OWN, laterOwn);
  await sleep(1000);
  abort.abort();
  for (const [index, stream] of [...streams, { via: 'console /api/events' }].entries()) {
    const text = index < heard.length ? heard[index]!.text : consoleStream.text;
    if ([marker, laterMarker, foreign].some((secret) => text.includes(secret))) problems.push({ verdict: 'cross_tenant', route: `GET events (${stream.via})`, status: 200, what: "the stream carried the other tenant's events" });
  }
  if (!heard[0]!.text.includes(laterOwn)) problems.push({ verdict: 'cross_tenant', route: 'GET /v1/events (direct)', status: 0, what: "the tenant's own stream did not carry its own DM (the check above proves nothing)" });
  return problems;
}

export async function rightsRound(stack: RightsStack, d: Draw, variants: number): Promise<{ problems: RightsProblem[]; requests: number }> {
  const problems: RightsProblem[] = [];
  const admin = bearer(stack.ports.ticketing, stack.token);
  const marker = `foreign-${randomBytes(6).toString('hex')}`;
  const ownText = `own-${randomBytes(6).toString('hex')}`;

  // The other tenant's state: a configured account with a DM ticket linked to another tracking client's task.
  await admin('PUT', `/v1/partner-configs/${FOREIGN}`, { pageName: 'Other tenant' });
  await bearer(stack.ports.tracking, stack.token)('PUT', '/v1/clients/other', { enabled: true, apiKey: 'fuzz-other-key' });
  await deliverDm(stack, OWN, ownText);
  await deliverDm(stack, OWN, `${ownText}-second`);
  await deliverDm(stack, FOREIGN, marker);
  const [own, secondOwn, foreign] = await Promise.all([ticketHolding(admin, OWN, ownText), ticketHolding(admin, OWN, `${ownText}-second`), ticketHolding(admin, FOREIGN, marker)]);
  await admin('PUT', `/v1/tickets/${foreign}/order`, { clientId: 'other', taskId: 'task-1' });

  // The tenant: tickets for account 1001 and tracking client demo only.
  const pool = testPool(stack.authDatabaseUrl);
  let token: string;
  try {
    ({ token } = await new ApiCredentialStore(pool).create({ name: 'fuzz tenant', scopes: ['tickets:read', 'tickets:write'], accountIds: [OWN], trackingClientIds: ['demo'] }));
  } finally {
    await pool.end();
  }
  const direct: Record<Case['service'], Caller['send']> = {
    ticketing: bearer(stack.ports.ticketing, token),
    auth: bearer(stack.ports.auth, token),
    tracking: bearer(stack.ports.tracking, token),
    console: (await consoleCaller(stack.ports.console, token)).send,
  };
  const all = cases(own, foreign, secondOwn);
  let requests = 0;
  const probe = async (kase: Case, path: string, headers: Record<string, string> = {}) => {
    const answer = await direct[kase.service](kase.method, path, kase.body, headers);
    requests += 1;
    const what = breach(kase, answer, [marker], foreign);
    if (what) problems.push({ verdict: 'cross_tenant', route: `${kase.service} ${kase.method} ${path}`, status: answer.status, what });
  };
  for (const kase of [...all.direct, ...all.console]) await probe(kase, kase.path);
  for (let i = 0; i < variants; i += 1) {
    const kase = d.pick([...all.direct, ...all.console]);
    const spelled = variant(d, kase.path);
    await probe(kase, spelled.path, spelled.headers);
  }

  const linked = JSON.parse((await admin('GET', `/v1/tickets/${own}`)).text) as { order?: { clientId?: string } | null };
  if (linked.order?.clientId === 'other') problems.push({ verdict: 'cross_tenant', route: 'PUT /v1/tickets/:id/order', status: 0, what: 'an order link to a tracking client outside the credential was stored' });

  problems.push(...(await streamProblems(stack, token, admin, { marker, foreign })));

  // One reply for concurrent identical requests under one key, straight and through the console together.
  const key = `fuzz-${randomBytes(6).toString('hex')}`;
  const text = `race-${randomBytes(6).toString('hex')}`;
  const answers = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      i % 2 === 0 ? direct.ticketing('POST', `/v1/tickets/${own}/replies`, { text }, { 'idempotency-key': key }) : direct.console('POST', `/api/tickets/${own}/replies`, { text }, { 'idempotency-key': key }),
    ),
  );
  requests += answers.length;
  const detail = JSON.parse((await admin('GET', `/v1/tickets/${own}`)).text) as { activities?: { text?: string }[] };
  const replies = (detail.activities ?? []).filter((activity) => activity.text === text).length;
  if (replies !== 1) problems.push({ verdict: 'duplicate', route: 'POST /v1/tickets/:id/replies', status: answers[0]!.status, what: `20 concurrent replies under one Idempotency-Key made ${replies} replies (statuses ${[...new Set(answers.map((a) => a.status))].join(', ')})` });
  return { problems, requests };
}

/** The console's relay of the tenant's stream (a fresh sign-in, so the stream's cookie is its own). */
async function consoleEventsOf(stack: RightsStack, token: string, signal: AbortSignal): Promise<Response | null> {
  const base = `http://127.0.0.1:${stack.ports.console}`;
  const signIn = await fetch(`${base}/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token }) });
  const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0]!;
  const response = await fetch(`${base}/api/events`, { headers: { cookie }, signal }).catch(() => null);
  return response?.status === 200 ? response : null;
}
