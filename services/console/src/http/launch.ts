import type { Express, Response } from 'express';
import { Refusal, REFUSAL_STATUS, requireBearerToken } from '@crm/http';
import { sign, verify } from '../domain/signed';
import type { Upstream } from '../adapters/upstream';
import { issueSession, setSessionCookie, type SessionSealer } from './session';

const TICKET_ID = /^[A-Za-z0-9._:-]{1,128}$/;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * A launch link that cannot open its ticket is opened by a person, in the CRM's frame: they get
 * a page in plain words (with the status a client would expect), never an API error body.
 */
function launchProblemPage(res: Response, status: number, title: string, advice: string): void {
  res
    .status(status)
    .type('html')
    .set('cache-control', 'no-store')
    .send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head><body style="font-family: system-ui, sans-serif; margin: 2rem; max-width: 40rem; color: #1a1a1a"><main><h1 style="font-size: 1.4rem">${escapeHtml(title)}</h1><p>${escapeHtml(advice)}</p></main></body></html>`);
}

/** Who opens the link, as the CRM names its user: its own id and/or email (auth finds the agent, or makes one), and a name. */
interface LaunchAgent {
  externalId?: string;
  email?: string;
  displayName?: string;
}

const text = (value: unknown, max: number) => value === undefined || (typeof value === 'string' && value.trim().length > 0 && value.length <= max);

/** The link's agent, checked: undefined when the CRM names none. */
function launchAgent(value: unknown): LaunchAgent | undefined {
  if (value === undefined) return undefined;
  const agent = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const named = typeof agent.externalId === 'string' || typeof agent.email === 'string';
  const email = agent.email === undefined || (typeof agent.email === 'string' && /^[^@\s]+@[^@\s]+$/.test(agent.email.trim()) && agent.email.length <= 320);
  if (!named || !text(agent.externalId, 200) || !email || !text(agent.displayName, 200)) {
    throw new Refusal('invalid', 'invalid_launch', '`agent` names who opens the link: `externalId` (your id of the person, up to 200 characters) and/or `email`, and optionally `displayName`');
  }
  return { externalId: agent.externalId as string | undefined, email: agent.email as string | undefined, displayName: agent.displayName as string | undefined };
}

export interface LaunchSettings {
  crmTokens: string[];
  ttlSeconds: number;
  /** How long the session a link opens lasts (auth issues it; the cookie lives no longer). */
  sessionTtlSeconds: number;
  publicUrl: () => string;
}

/**
 * Launch links for embedding: the CRM (server to server, with its bearer token) asks for a
 * short-lived signed link to one ticket and opens it in an iframe. Opening it (once) asks auth,
 * with the console's own credential, for a session limited to that ticket: every service then
 * lets it reach that ticket (and its order) only.
 */
export function launchRoutes(app: Express, sealer: SessionSealer, auth: Upstream, launch: LaunchSettings): void {
  const session = sealer.settings;

  app.post('/v1/launch-links', requireBearerToken(launch.crmTokens), (req, res) => {
    const { ticketId, agent: named } = (req.body ?? {}) as { ticketId?: unknown; agent?: unknown };
    if (typeof ticketId !== 'string' || !TICKET_ID.test(ticketId)) throw new Refusal('invalid', 'invalid_launch', '`ticketId` must be a ticket id (1-128 of A-Z a-z 0-9 . _ : -)');
    const agent = launchAgent(named);
    const exp = Math.floor(Date.now() / 1000) + launch.ttlSeconds;
    const token = sign(session.secret, 'launch', { exp, ticketId, ...(agent ? { agent } : {}) });
    res.status(201).json({ url: `${launch.publicUrl()}/launch?token=${token}`, expiresAt: new Date(exp * 1000).toISOString() });
  });

  app.get('/launch', async (req, res) => {
    const claims = verify(session.secret, 'launch', typeof req.query.token === 'string' ? req.query.token : undefined);
    const minutes = Math.max(1, Math.round(launch.ttlSeconds / 60));
    if (!claims || typeof claims.ticketId !== 'string') {
      launchProblemPage(res, 401, 'This link has expired', `Links to a ticket work for ${minutes} minute${minutes === 1 ? '' : 's'} and once only. Open the ticket again from the CRM to get a new one.`);
      return;
    }
    // A link that names its agent opens a session acting as that agent (auth finds it, or creates it with the role agent).
    const agent = claims.agent as LaunchAgent | undefined;
    let issued;
    try {
      // auth opens one session per link (its id), whichever console replica is asked.
      issued = await issueSession(auth, session, { launch: { ticketId: claims.ticketId, linkId: claims.jti, ...(agent ? { agent } : {}) }, ttlSeconds: launch.sessionTtlSeconds });
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      if (error.code === 'invalid_launch') launchProblemPage(res, 401, 'This link was used already', 'Each link opens the ticket once. Open the ticket again from the CRM to get a new one.');
      else launchProblemPage(res, REFUSAL_STATUS[error.kind], 'The ticket could not be opened just now', 'The console could not start a session for it. Wait a moment, then open the ticket again from the CRM.');
      return;
    }
    setSessionCookie(res, sealer, issued, claims.ticketId);
    res.redirect(303, `/embed/tickets/${encodeURIComponent(claims.ticketId)}`);
  });
}
