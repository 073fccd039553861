import type { Express, Request, RequestHandler, Response } from 'express';
import { HttpError } from '@crm/http';
import { mask } from '@crm/secrets';
import type { Upstream } from '../adapters/upstream';
import { csrfTokenOf, sameCsrf, sign, verify, type Claims } from '../domain/signed';

export const SESSION_COOKIE = 'console_session';

export interface SessionSettings {
  secret: string;
  ttlSeconds: number;
  secure: boolean;
  /** SameSite=None (with Secure) so an embedded console keeps its session in a cross-site frame. */
  crossSiteFrames: boolean;
  /** What the browser needs to know (no secret). */
  clientSettings: Record<string, unknown>;
}

export interface Session extends Claims {
  /** Who signed in, as shown (the masked credential, or "launch link"). */
  agent: string;
  /** Set for a session opened by a launch link: only this ticket is reachable. */
  ticketId?: string;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      session?: Session;
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

export function setSessionCookie(res: Response, settings: SessionSettings, claims: Omit<Session, 'jti' | 'exp'>): void {
  const exp = Math.floor(Date.now() / 1000) + settings.ttlSeconds;
  res.cookie(SESSION_COOKIE, sign(settings.secret, 'session', { ...claims, exp }), {
    httpOnly: true,
    secure: settings.secure,
    sameSite: settings.secure && settings.crossSiteFrames ? 'none' : 'lax',
    path: '/',
    maxAge: settings.ttlSeconds * 1000,
  });
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Every /api route but sign-in needs a session; writes need its CSRF token in `x-csrf-token`. */
export function requireSession(settings: SessionSettings): RequestHandler {
  return (req, _res, next) => {
    const session = verify(settings.secret, 'session', cookieOf(req, SESSION_COOKIE)) as Session | null;
    if (!session) throw new HttpError(401, 'not_signed_in', 'sign in first (your session is missing or has expired)');
    if (WRITE_METHODS.has(req.method) && !sameCsrf(settings.secret, session.jti, req.get('x-csrf-token'))) {
      throw new HttpError(403, 'csrf_failed', 'the request lacks this session\'s CSRF token; reload the page');
    }
    req.session = session;
    next();
  };
}

/** Sign-in, the session's description and sign-out. */
export function sessionRoutes(app: Express, settings: SessionSettings, ticketing: Upstream): void {
  app.post('/api/session', async (req, res) => {
    // JSON only: a cross-site form cannot send it without a CORS preflight, which is refused.
    if (!req.is('application/json')) throw new HttpError(415, 'unsupported_media_type', 'send the credential as JSON: {"token": "..."}');
    const token = (req.body as { token?: unknown } | undefined)?.token;
    if (typeof token !== 'string' || token.trim() === '' || token.length > 512) throw new HttpError(400, 'invalid_credential', '`token` must be your API credential (a non-empty string)');
    const answer = await ticketing.call('GET', '/v1/accounts', undefined, token.trim());
    if (answer.status === 401 || answer.status === 403) throw new HttpError(401, 'invalid_credential', 'ticketing does not accept this credential');
    if (answer.status !== 200) throw new HttpError(502, 'upstream_unavailable', `ticketing could not check the credential (it answered ${answer.status})`);
    setSessionCookie(res, settings, { agent: mask(token.trim()) });
    res.status(201).json({ signedIn: true });
  });

  app.get('/api/session', (req, res) => {
    const session = verify(settings.secret, 'session', cookieOf(req, SESSION_COOKIE)) as Session | null;
    if (!session) throw new HttpError(401, 'not_signed_in', 'sign in first');
    res.set('cache-control', 'no-store').json({
      agent: session.agent,
      ticketId: session.ticketId ?? null,
      csrfToken: csrfTokenOf(settings.secret, session.jti),
      expiresAt: new Date(session.exp * 1000).toISOString(),
      settings: settings.clientSettings,
    });
  });

  app.delete('/api/session', requireSession(settings), (_req, res) => {
    res.clearCookie(SESSION_COOKIE, { path: '/' });
    res.status(204).end();
  });
}

/** A launch-link session reaches its own ticket (and its map) only. */
export const launchScope: RequestHandler = (req, _res, next) => {
  const ticketId = req.session?.ticketId;
  if (!ticketId) return next();
  const path = req.baseUrl + req.path;
  const allowed = path === '/api/events' || path.startsWith('/api/tracking/') || path === `/api/tickets/${encodeURIComponent(ticketId)}` || path.startsWith(`/api/tickets/${encodeURIComponent(ticketId)}/`);
  if (!allowed) throw new HttpError(403, 'outside_launch_scope', 'this session was opened for one ticket only');
  next();
};
