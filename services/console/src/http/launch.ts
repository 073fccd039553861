import type { Express } from 'express';
import { Refusal, requireBearerToken } from '@crm/http';
import { sign, verify } from '../domain/signed';
import type { Upstream } from '../adapters/upstream';
import { issueSession, setSessionCookie, type SessionSealer } from './session';

const TICKET_ID = /^[A-Za-z0-9._:-]{1,128}$/;

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
    const ticketId = (req.body as { ticketId?: unknown } | undefined)?.ticketId;
    if (typeof ticketId !== 'string' || !TICKET_ID.test(ticketId)) throw new Refusal('invalid', 'invalid_launch', '`ticketId` must be a ticket id (1-128 of A-Z a-z 0-9 . _ : -)');
    const exp = Math.floor(Date.now() / 1000) + launch.ttlSeconds;
    const token = sign(session.secret, 'launch', { exp, ticketId });
    res.status(201).json({ url: `${launch.publicUrl()}/launch?token=${token}`, expiresAt: new Date(exp * 1000).toISOString() });
  });

  app.get('/launch', async (req, res) => {
    const claims = verify(session.secret, 'launch', typeof req.query.token === 'string' ? req.query.token : undefined);
    if (!claims || typeof claims.ticketId !== 'string') throw new Refusal('unauthorized', 'invalid_launch', 'this launch link is not valid or has expired; open the ticket again from the CRM');
    // auth opens one session per link (its id), whichever console replica is asked.
    const issued = await issueSession(auth, session, { launch: { ticketId: claims.ticketId, linkId: claims.jti }, ttlSeconds: launch.sessionTtlSeconds });
    setSessionCookie(res, sealer, issued, claims.ticketId);
    res.redirect(303, `/embed/tickets/${encodeURIComponent(claims.ticketId)}`);
  });
}
