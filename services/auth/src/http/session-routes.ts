import type { RequestHandler, Router } from 'express';
import { principalOf, requireScope } from '@crm/access';
import { Refusal } from '@crm/http';
import type { LaunchAgent, SessionService } from '../operations/sessions';
import { bodyOf } from './params';

/** What the document lets through as a body of POST /v1/sessions (one of two shapes; checked before the route runs). */
type IssueBody =
  | { subjectToken: string; clientAddress: string; ttlSeconds?: number }
  | { email: string; password: string; clientAddress: string; ttlSeconds?: number }
  | { launch: { ticketId: string; linkId?: string; agent?: LaunchAgent }; ttlSeconds?: number };

/** A session holds no right to make sessions, whatever its scopes: only the console's own credential issues them. */
const notASession: RequestHandler = (req, _res, next) => {
  if (principalOf(req).sessionId !== undefined) throw new Refusal('forbidden', 'missing_scope', "a session may not issue sessions: issue them with the console's own credential");
  next();
};

/**
 * The session routes: POST /v1/sessions issues a session (sign-in with a credential or an
 * agent's email and password, or a launch link) for the
 * console, whose credential holds `sessions:issue`; DELETE /v1/sessions/current ends the
 * session whose token the request carries (sign-out).
 */
export function sessionRoutes(router: Router, sessions: SessionService): void {
  router.post('/v1/sessions', requireScope('sessions:issue'), notASession, async (req, res) => {
    const body = bodyOf(req) as IssueBody;
    const issuer = principalOf(req);
    const issued =
      'launch' in body
        ? await sessions.launch({ ...body.launch, ttlSeconds: body.ttlSeconds }, issuer)
        : 'email' in body
          ? await sessions.signInWithPassword(body, issuer)
          : await sessions.signIn(body, issuer);
    res.status(201).set('cache-control', 'no-store').json(issued);
  });

  router.delete('/v1/sessions/current', async (req, res) => {
    const { sessionId } = principalOf(req);
    if (sessionId === undefined) throw new Refusal('invalid', 'not_a_session', 'this token is not a session: a credential is revoked with `cli credentials revoke`');
    // Ended since this process last checked the token (its cache had not heard yet): as invalid as any other ended session.
    if (!(await sessions.end(sessionId))) throw new Refusal('unauthorized', 'unauthorized', 'the API token is not valid', { headers: { 'www-authenticate': 'Bearer' } });
    res.status(204).end();
  });
}
