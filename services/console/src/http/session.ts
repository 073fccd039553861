import { hkdfSync, randomBytes } from 'node:crypto';
import type { Express, Request, RequestHandler, Response } from 'express';
import { Refusal, refusalKindOf } from '@crm/http';
import { SecretBox } from '@crm/secrets';
import type { Upstream, UpstreamAnswer } from '../adapters/upstream';
import { csrfTokenOf, sameCsrf, sign, verify, type Claims } from '../domain/signed';
import type { components } from '../../web/src/generated/console';

type ConsoleSchemas = components['schemas'];

export const SESSION_COOKIE = 'console_session';

export interface SessionSettings {
  secret: string;
  /** The console's own credential (scope sessions:issue): only ever sent to auth's POST /v1/sessions. */
  serviceToken: string;
  ttlSeconds: number;
  secure: boolean;
  /** SameSite=None (with Secure) for launch sessions, so the console embedded in a cross-site frame keeps its session. */
  crossSiteFrames: boolean;
  /** What the browser needs to know (no secret). */
  clientSettings: ConsoleSchemas['Settings'];
}

/** What the cookie holds: auth's session token (sealed) and what the screens show. */
export interface Session extends Claims {
  /** auth's session token, sealed with a key derived from SESSION_SECRET. */
  sealed: string;
  /** Who signed in, by name (the agent's display name, the credential's name, or the launch link's). */
  agent: string;
  /** Who signed in, by id: the principal the services record (absent in cookies made before it was kept). */
  agentId?: string;
  scopes: string[];
  /** Set for a session opened by a launch link: only this ticket is reachable. */
  ticketId?: string;
}

/** A session as a request sees it: the cookie's claims with the token opened. */
export interface OpenSession extends Session {
  token: string;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      session?: OpenSession;
    }
  }
}

/** auth's answer to POST /v1/sessions. */
interface IssuedSession {
  token: string;
  expiresAt: string;
  grant: { id: string; name: string; scopes: string[]; ticketIds: string[] | null };
}

/** Seals session tokens into cookies: AES-256-GCM with a key derived from SESSION_SECRET (a stolen cookie is still a session, but never shows its token). */
export class SessionSealer {
  private readonly box: SecretBox;

  constructor(readonly settings: SessionSettings) {
    const key = Buffer.from(hkdfSync('sha256', settings.secret, '', 'console session token', 32)).toString('base64');
    this.box = new SecretBox(key);
  }

  seal(token: string, jti: string): string {
    return this.box.seal(token, jti);
  }

  /** The cookie's session with its token, or null when it is missing, expired, forged or sealed with another secret. */
  open(req: Request): OpenSession | null {
    const claims = verify(this.settings.secret, 'session', cookieOf(req, SESSION_COOKIE)) as Session | null;
    if (!claims || typeof claims.sealed !== 'string') return null;
    try {
      return { ...claims, token: this.box.open(claims.sealed, claims.jti) };
    } catch {
      return null;
    }
  }
}

function cookieOf(req: Request, name: string): string | undefined {
  for (const part of (req.get('cookie') ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

function cookieOptions(settings: SessionSettings, launch: boolean) {
  // Only a launch session lives in a cross-site frame; a sign-in session stays Lax.
  return { httpOnly: true, secure: settings.secure, sameSite: launch && settings.secure && settings.crossSiteFrames ? ('none' as const) : ('lax' as const), path: '/' };
}

/** Sets the cookie of a session auth issued; it lives exactly as long as auth's session. */
export function setSessionCookie(res: Response, sealer: SessionSealer, issued: IssuedSession, ticketId?: string): void {
  const expiresAtMs = Date.parse(issued.expiresAt);
  const exp = Math.floor(expiresAtMs / 1000);
  const jti = randomBytes(16).toString('base64url');
  const claims: Omit<Session, 'jti'> & { jti: string } = { exp, jti, sealed: sealer.seal(issued.token, jti), agent: issued.grant.name, agentId: issued.grant.id, scopes: issued.grant.scopes, ...(ticketId ? { ticketId } : {}) };
  res.cookie(SESSION_COOKIE, sign(sealer.settings.secret, 'session', claims), { ...cookieOptions(sealer.settings, Boolean(ticketId)), maxAge: Math.max(0, expiresAtMs - Date.now()) });
}

export function clearSessionCookie(res: Response, settings: SessionSettings, launch = false): void {
  res.clearCookie(SESSION_COOKIE, cookieOptions(settings, launch));
}

/** The answer when a service no longer accepts the session (signed out, revoked or expired): the cookie goes too. */
export function sessionEnded(res: Response, settings: SessionSettings, launch = false): Refusal {
  clearSessionCookie(res, settings, launch);
  return new Refusal('unauthorized', 'session_ended', 'your session has ended; sign in again');
}

/** A 429 of a service, relayed with its Retry-After. */
export function tooManyRequests(answer: UpstreamAnswer, fallbackCode: string): Refusal {
  const retryAfter = answer.headers.get('retry-after') ?? '60';
  const error = (answer.body as { error?: { code?: string; message?: string } } | null)?.error;
  return new Refusal('rate_limited', error?.code ?? fallbackCode, `too many attempts; try again in ${retryAfter} s`, { headers: { 'retry-after': retryAfter } });
}

/**
 * A service's refusal passed on as the same kind of refusal, with its code, message, fields and
 * Retry-After; a failure outside the kinds (a 500) is the service failing, so upstream_failed.
 */
export function relayedRefusal(answer: UpstreamAnswer, fallbackCode: string, fallbackMessage: string): Refusal {
  const error = (answer.body as { error?: { code?: unknown; message?: unknown; fields?: unknown } } | null)?.error;
  const kind = refusalKindOf(answer.status) ?? (answer.status < 500 ? 'upstream_rejected' : 'upstream_failed');
  const retryAfter = answer.headers.get('retry-after');
  return new Refusal(kind, typeof error?.code === 'string' ? error.code : fallbackCode, typeof error?.message === 'string' ? error.message : fallbackMessage, {
    ...(Array.isArray(error?.fields) ? { fields: error.fields } : {}),
    ...(retryAfter ? { headers: { 'retry-after': retryAfter } } : {}),
  });
}

/** Asks auth for a session with the console's own credential: a sign-in's (subjectToken) or a launch link's. */
export async function issueSession(auth: Upstream, settings: SessionSettings, body: Record<string, unknown>): Promise<IssuedSession> {
  const answer = await auth.call(settings.serviceToken, 'POST', '/v1/sessions', body);
  if (answer.status === 201) return answer.body as IssuedSession;
  const error = (answer.body as { error?: { code?: string; message?: string } } | null)?.error;
  if (answer.status === 429) throw tooManyRequests(answer, 'too_many_failures');
  if (answer.status === 401 && 'subjectToken' in body) throw new Refusal('unauthorized', 'invalid_credential', 'this credential is not accepted (unknown, revoked or mistyped); check it and try again');
  // One answer whichever of the two was wrong: the page never tells whether the email exists.
  if (answer.status === 401 && 'email' in body) throw new Refusal('unauthorized', 'invalid_credential', 'the email or password is not right; check both and try again');
  if (answer.status === 409 && error?.code === 'launch_link_used') throw new Refusal('unauthorized', 'invalid_launch', 'this launch link was used already; open the ticket again from the CRM');
  if (answer.status === 400) throw new Refusal('invalid', error?.code ?? 'invalid_request', error?.message ?? 'auth refused the request');
  throw new Refusal('upstream_failed', 'upstream_unavailable', `auth could not open a session (it answered ${answer.status}); try again shortly`);
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Every /api route but sign-in needs a session; writes need its CSRF token in `x-csrf-token`. */
export function requireSession(sealer: SessionSealer): RequestHandler {
  return (req, _res, next) => {
    const session = sealer.open(req);
    if (!session) throw new Refusal('unauthorized', 'not_signed_in', 'sign in first (your session is missing or has expired)');
    if (WRITE_METHODS.has(req.method) && !sameCsrf(sealer.settings.secret, session.jti, req.get('x-csrf-token'))) {
      throw new Refusal('forbidden', 'csrf_failed', "the request lacks this session's CSRF token; reload the page");
    }
    req.session = session;
    next();
  };
}

/** Printable ASCII, as every credential is: anything else is a paste gone wrong, told as such before auth is asked. */
const CREDENTIAL_TEXT = /^[\x21-\x7E]{1,512}$/;

/**
 * What auth is asked to exchange: an agent's email and password (the console's sign-in), or an
 * API token (kept for development and scripts); each checked in words before auth is asked.
 */
function signInBody(body: unknown): { email: string; password: string } | { subjectToken: string } {
  const given = (body ?? {}) as { token?: unknown; email?: unknown; password?: unknown };
  if (typeof given.email === 'string' || typeof given.password === 'string') {
    const email = typeof given.email === 'string' ? given.email.trim() : '';
    const password = typeof given.password === 'string' ? given.password : '';
    if (!email) throw new Refusal('invalid', 'invalid_sign_in', 'enter your email address');
    if (!password) throw new Refusal('invalid', 'invalid_sign_in', 'enter your password');
    return { email, password };
  }
  const token = typeof given.token === 'string' ? given.token.trim() : '';
  if (!CREDENTIAL_TEXT.test(token)) throw new Refusal('invalid', 'invalid_token', 'the credential holds characters no credential has (or is empty or over 512 characters); paste it again');
  return { subjectToken: token };
}

/** Sign-in, the session's description and sign-out. */
export function sessionRoutes(app: Express, sealer: SessionSealer, { auth, ticketing }: { auth: Upstream; ticketing: Upstream }): void {
  const settings = sealer.settings;

  app.post('/api/session', async (req, res) => {
    // JSON only: a cross-site form cannot send it without a CORS preflight, which is refused.
    if (!req.is('application/json')) throw new Refusal('unsupported_media_type', 'unsupported_media_type', 'send the sign-in as JSON: {"email": "...", "password": "..."} or {"token": "..."}');
    const issued = await issueSession(auth, settings, { ...signInBody(req.body), clientAddress: req.ip ?? '', ttlSeconds: settings.ttlSeconds });
    setSessionCookie(res, sealer, issued);
    res.status(201).json({ signedIn: true });
  });

  app.get('/api/session', async (req, res) => {
    const session = sealer.open(req);
    if (!session) throw new Refusal('unauthorized', 'not_signed_in', 'sign in first');
    // ticketing's view of the session: it still verifies, and its account limits as they are now.
    const me = await ticketing.call(session.token, 'GET', '/v1/me');
    if (me.status === 401) throw sessionEnded(res, settings, Boolean(session.ticketId));
    if (me.status === 429) throw tooManyRequests(me, 'rate_limited');
    const accountIds = me.status === 200 ? ((me.body as { accountIds?: string[] | null }).accountIds ?? null) : [];
    res.set('cache-control', 'no-store').json({
      agent: session.agent,
      agentId: session.agentId ?? null,
      scopes: session.scopes,
      accountIds,
      ticketId: session.ticketId ?? null,
      csrfToken: csrfTokenOf(settings.secret, session.jti),
      expiresAt: new Date(session.exp * 1000).toISOString(),
      settings: settings.clientSettings,
    } satisfies ConsoleSchemas['SessionInfo']);
  });

  app.delete('/api/session', requireSession(sealer), async (req, res) => {
    const session = req.session!;
    const answer = await auth.call(session.token, 'DELETE', '/v1/sessions/current');
    // 401: the session had ended already; either way the cookie goes.
    if (answer.status !== 204 && answer.status !== 401) throw new Refusal('upstream_failed', 'upstream_unavailable', `auth could not end the session (it answered ${answer.status}); try again`);
    clearSessionCookie(res, settings, Boolean(session.ticketId));
    res.status(204).end();
  });
}

/**
 * A launch-link session reaches its own ticket only (its map and its events too); merging
 * needs other tickets, so it may not. A first filter: ticketing refuses the rest itself.
 */
export const launchScope: RequestHandler = (req, _res, next) => {
  const ticketId = req.session?.ticketId;
  if (!ticketId) return next();
  const path = req.baseUrl + req.path;
  const own = `/api/tickets/${encodeURIComponent(ticketId)}`;
  const allowed = path === '/api/events' || path === own || (path.startsWith(`${own}/`) && path !== `${own}/merge`);
  if (!allowed) throw new Refusal('forbidden', 'outside_launch_scope', 'this session was opened for one ticket only');
  next();
};
