import type { Express } from 'express';
import { HttpError, requireBearerToken } from '@crm/http';
import { sign, verify } from '../domain/signed';
import type { Upstream } from '../adapters/upstream';
import { issueSession, setSessionCookie, type SessionSealer } from './session';

const TICKET_ID = /^[A-Za-z0-9._:-]{1,128}$/;

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
    throw new HttpError(400, 'invalid_launch', '`agent` names who opens the link: `externalId` (your id of the person, up to 200 characters) and/or `email`, and optionally `displayName`');
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
    if (typeof ticketId !== 'string' || !TICKET_ID.test(ticketId)) throw new HttpError(400, 'invalid_launch', '`ticketId` must be a ticket id (1-128 of A-Z a-z 0-9 . _ : -)');
    const agent = launchAgent(named);
    const exp = Math.floor(Date.now() / 1000) + launch.ttlSeconds;
    const token = sign(session.secret, 'launch', { exp, ticketId, ...(agent ? { agent } : {}) });
    res.status(201).json({ url: `${launch.publicUrl()}/launch?token=${token}`, expiresAt: new Date(exp * 1000).toISOString() });
  });

  app.get('/launch', async (req, res) => {
    const claims = verify(session.secret, 'launch', typeof req.query.token === 'string' ? req.query.token : undefined);
    if (!claims || typeof claims.ticketId !== 'string') throw new HttpError(401, 'invalid_launch', 'this launch link is not valid or has expired; open the ticket again from the CRM');
    // auth opens one session per link (its id), whichever console replica is asked.
    // A link that names its agent opens a session acting as that agent (auth finds it, or creates it with the role agent).
    const agent = claims.agent as LaunchAgent | undefined;
    const issued = await issueSession(auth, session, { launch: { ticketId: claims.ticketId, linkId: claims.jti, ...(agent ? { agent } : {}) }, ttlSeconds: launch.sessionTtlSeconds });
    setSessionCookie(res, sealer, issued, claims.ticketId);
    res.redirect(303, `/embed/tickets/${encodeURIComponent(claims.ticketId)}`);
  });
}
