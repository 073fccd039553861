import { randomBytes } from 'node:crypto';
import type { Request, Response, Router } from 'express';
import { sameSecret } from '@crm/secrets';
import { answer, authenticate, callerOf, param } from './authn';
import type { PlatformContext } from './context';
import { CONSENT_PAGE_POLICY, escapeHtml, page, sendBackToApp } from './pages';
import { Errors, PlatformError } from './errors';

/** Request tokens not exchanged within this time are forgotten. */
const REQUEST_TOKEN_TTL_MS = 15 * 60_000;


function formAnswer(res: Response, values: Record<string, string>): void {
  res.type('application/x-www-form-urlencoded').send(new URLSearchParams(values).toString());
}

/** RFC 1738 decoding of the basic credentials' two halves, as the platform documents them. */
function basicCredentials(header: string | undefined): { key: string; secret: string } | null {
  const match = header && /^Basic ([A-Za-z0-9+/=]+)$/.exec(header);
  if (!match) return null;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  try {
    return { key: decodeURIComponent(decoded.slice(0, colon)), secret: decodeURIComponent(decoded.slice(colon + 1)) };
  } catch {
    return null;
  }
}

function pendingRequest(ctx: PlatformContext, token: string | undefined) {
  const request = token ? ctx.state.requestTokens.get(token) : undefined;
  if (!request || Date.now() - request.createdAt > REQUEST_TOKEN_TTL_MS) return undefined;
  return request;
}

/** The user's answer on the authorize page: a PIN or a redirect to the app's callback on approval, nothing shared on a cancel. */
function decideAuthorization(ctx: PlatformContext, req: Request, res: Response): void {
  const { state } = ctx;
  const token = param(res, 'oauth_token');
  const request = pendingRequest(ctx, token);
  if (!request || request.approved) {
    page(res, 400, 'This page is no longer valid', '<p>The request token is unknown, used or expired.</p>');
    return;
  }
  if (param(res, 'decision') !== 'approve') {
    state.requestTokens.delete(token!);
    if (request.callback === 'oob') page(res, 200, 'You cancelled', '<p>Nothing was shared with the app.</p>');
    else sendBackToApp(req, res, `${request.callback}${request.callback.includes('?') ? '&' : '?'}denied=${encodeURIComponent(token!)}`);
    return;
  }
  let userId: string;
  try {
    userId = state.user(param(res, 'user')?.trim() || '@simulated_user').id;
  } catch (error) {
    page(res, 400, 'Unknown user', `<p>${escapeHtml((error as Error).message)}</p>`);
    return;
  }
  const verifier = randomBytes(16).toString('hex');
  request.approved = { userId, verifier };
  if (request.callback === 'oob') {
    page(res, 200, 'Enter this PIN in the app', `<p><code>${verifier}</code></p>`);
    return;
  }
  const separator = request.callback.includes('?') ? '&' : '?';
  sendBackToApp(req, res, `${request.callback}${separator}oauth_token=${encodeURIComponent(token!)}&oauth_verifier=${verifier}`);
}

/**
 * User authorisation (three-legged OAuth 1.0a) and the app-only bearer token:
 * request_token, the authorize page, access_token, oauth2/token.
 */
export function oauthRoutes(router: Router, ctx: PlatformContext): void {
  const { state, config } = ctx;

  router.post('/oauth/request_token', authenticate(ctx, 'consumer'), (_req, res) => {
    const who = callerOf(res);
    // RFC 5849 section 3.5 lets a client send OAuth parameters in the header or the form body (twitter-api-v2 uses the body).
    const callback = who.kind === 'consumer' ? (who.oauth.get('oauth_callback') ?? param(res, 'oauth_callback')) : undefined;
    if (!callback || (callback !== 'oob' && !/^https?:\/\//.test(callback))) {
      throw new PlatformError(403, 417, 'Desktop applications only support the oauth_callback value \'oob\'', {}, 'oauth_callback missing or not a URL');
    }
    const issued = state.issueRequestToken(callback);
    formAnswer(res, { oauth_token: issued.token, oauth_token_secret: issued.secret, oauth_callback_confirmed: 'true' });
  });

  // The page a user's browser is sent to: who is signing in, and approve or cancel. The platform
  // also serves it as /oauth/authenticate ("Sign in with"), the link clients make by default.
  router.get(['/oauth/authorize', '/oauth/authenticate'], (req, res) => {
    const token = typeof req.query.oauth_token === 'string' ? req.query.oauth_token : undefined;
    if (!pendingRequest(ctx, token)) {
      page(res, 400, 'This page is no longer valid', '<p>The request token is unknown, used or expired. Start the connection again from the app.</p>');
      return;
    }
    res.set('content-security-policy', CONSENT_PAGE_POLICY);
    page(
      res,
      200,
      'Authorize CRM Support (simulated) to access your account?',
      `<form method="post" action="/oauth/authorize">
<input type="hidden" name="oauth_token" value="${escapeHtml(token!)}">
<label>Signed in as <input name="user" value="" placeholder="@screen_name or numeric id"></label>
<button type="submit" name="decision" value="approve">Authorize app</button>
<button type="submit" name="decision" value="deny">Cancel</button>
</form>`,
    );
  });

  router.post('/oauth/authorize', (req, res) => decideAuthorization(ctx, req, res));

  router.post('/oauth/access_token', authenticate(ctx, 'request-token'), (_req, res) => {
    const who = callerOf(res);
    if (who.kind !== 'request-token') throw Errors.invalidToken();
    const verifier = who.oauth.get('oauth_verifier') ?? param(res, 'oauth_verifier');
    const approved = who.request.approved;
    state.requestTokens.delete(who.token); // one exchange per request token, whatever its outcome
    if (!approved || !verifier || !sameSecret(verifier, approved.verifier) || Date.now() - who.request.createdAt > REQUEST_TOKEN_TTL_MS) {
      throw new PlatformError(401, 32, 'Invalid oauth_verifier parameter', {}, 'verifier missing, wrong, or the request was not approved');
    }
    const user = state.user({ id: approved.userId });
    const issued = state.issueAccessToken(user.id);
    formAnswer(res, { oauth_token: issued.token, oauth_token_secret: issued.secret, user_id: user.id, screen_name: user.screenName });
  });

  router.post('/oauth2/token', async (req, res) => {
    res.locals.caller = { kind: 'basic' };
    const credentials = basicCredentials(req.get('authorization'));
    const valid = credentials !== null && sameSecret(credentials.key, config.SOCIAL_CONSUMER_KEY) && sameSecret(credentials.secret, config.SOCIAL_CONSUMER_SECRET);
    if (!valid) throw Errors.badAppCredentials();
    if (param(res, 'grant_type') !== 'client_credentials') throw new PlatformError(400, 170, 'Missing required parameter: grant_type');
    // The platform hands out the same bearer token until it is invalidated.
    const bearer = [...state.bearerTokens][0] ?? state.issueBearerToken();
    await answer(res, 200, { token_type: 'bearer', access_token: bearer });
  });
}
