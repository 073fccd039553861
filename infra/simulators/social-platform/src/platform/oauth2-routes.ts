import { createHash, randomBytes } from 'node:crypto';
import type { Request, RequestHandler, Response, Router } from 'express';
import { sameSecret } from '@crm/secrets';
import { param } from './authn';
import type { PlatformContext } from './context';
import { CONSENT_PAGE_POLICY, escapeHtml, page, sendBackToApp } from './pages';

/** Authorization codes not exchanged within this time are refused: the platform documents 30 seconds. */
const CODE_TTL_MS = 30_000;

/** The scopes the platform knows for user context. */
export const OAUTH2_SCOPES = [
  'tweet.read',
  'tweet.write',
  'tweet.moderate.write',
  'users.read',
  'follows.read',
  'follows.write',
  'offline.access',
  'space.read',
  'mute.read',
  'mute.write',
  'like.read',
  'like.write',
  'list.read',
  'list.write',
  'block.read',
  'block.write',
  'bookmark.read',
  'bookmark.write',
  'dm.read',
  'dm.write',
  'media.write',
] as const;

/** RFC 6749 section 5.2 errors, as the token endpoint answers them. */
class TokenError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}


const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

/** The client authenticates with Basic (a confidential client) or names itself in the body (a public client). */
function checkClient(ctx: PlatformContext, res: Response, header: string | undefined): void {
  const { SOCIAL_OAUTH2_CLIENT_ID: id, SOCIAL_OAUTH2_CLIENT_SECRET: secret } = ctx.config;
  const basic = header && /^Basic ([A-Za-z0-9+/=]+)$/.exec(header);
  if (basic) {
    const [given, givenSecret] = Buffer.from(basic[1]!, 'base64').toString('utf8').split(':').map((part) => decodeURIComponent(part ?? ''));
    if (!sameSecret(given ?? '', id) || !sameSecret(givenSecret ?? '', secret)) throw new TokenError(401, 'invalid_client', 'Unknown client or wrong client secret.');
    return;
  }
  if (param(res, 'client_id') !== id) throw new TokenError(401, 'invalid_client', 'Missing or unknown client_id.');
}

function exchangeCode(ctx: PlatformContext, res: Response) {
  const { state, config } = ctx;
  const code = param(res, 'code') ?? '';
  const pending = state.authorizationCodes.get(code);
  state.authorizationCodes.delete(code); // one exchange per code, whatever its outcome
  if (!pending || Date.now() - pending.createdAt > CODE_TTL_MS) throw new TokenError(400, 'invalid_grant', 'Value passed for the authorization code was invalid.');
  if (param(res, 'redirect_uri') !== pending.redirectUri) throw new TokenError(400, 'invalid_grant', 'redirect_uri does not match the authorization request.');
  const verifier = param(res, 'code_verifier') ?? '';
  const expected = pending.method === 'S256' ? s256(verifier) : verifier;
  // RFC 7636 asks for 43 to 128 characters; the platform takes longer ones too (oauthlib, under tweepy, makes 171).
  if (!/^[A-Za-z0-9._~-]{43,512}$/.test(verifier) || !sameSecret(expected, pending.challenge)) throw new TokenError(400, 'invalid_grant', 'code_verifier does not match the code challenge.');
  return state.issueOAuth2Tokens(pending.userId, pending.scopes, config.OAUTH2_ACCESS_TOKEN_TTL_SECONDS);
}

/** Refresh tokens rotate: each is used once, and a used one is refused. */
function refresh(ctx: PlatformContext, res: Response) {
  const { state, config } = ctx;
  const given = param(res, 'refresh_token') ?? '';
  const stored = state.oauth2RefreshTokens.get(given);
  if (!stored) throw new TokenError(400, 'invalid_request', 'Value passed for the token was invalid.');
  state.oauth2RefreshTokens.delete(given);
  return state.issueOAuth2Tokens(stored.userId, stored.scopes, config.OAUTH2_ACCESS_TOKEN_TTL_SECONDS);
}

function authorizeRequest(ctx: PlatformContext, query: Record<string, unknown>): { problem: string } | { redirectUri: string; state: string; challenge: string; method: 'S256' | 'plain'; scopes: string[] } {
  const text = (name: string) => (typeof query[name] === 'string' ? (query[name] as string) : '');
  if (text('response_type') !== 'code') return { problem: 'response_type must be code' };
  if (text('client_id') !== ctx.config.SOCIAL_OAUTH2_CLIENT_ID) return { problem: 'unknown client_id' };
  if (!URL.canParse(text('redirect_uri'))) return { problem: 'redirect_uri must be a URL' };
  const method = text('code_challenge_method').toLowerCase() === 'plain' ? 'plain' : text('code_challenge_method').toLowerCase() === 's256' ? 'S256' : null;
  if (!method || !text('code_challenge')) return { problem: 'a code_challenge with code_challenge_method S256 or plain is required (PKCE)' };
  const scopes = text('scope').split(/[ +]/).filter(Boolean);
  const unknown = scopes.filter((scope) => !(OAUTH2_SCOPES as readonly string[]).includes(scope));
  if (!scopes.length || unknown.length) return { problem: `scope must name known scopes${unknown.length ? ` (unknown: ${unknown.join(', ')})` : ''}` };
  if (!text('state')) return { problem: 'state is required' };
  return { redirectUri: text('redirect_uri'), state: text('state'), challenge: text('code_challenge'), method, scopes };
}

/**
 * The token endpoint takes a form body (RFC 6749), and the platform accepts the same fields as
 * JSON too (twitter-api-v2 sends JSON): JSON string fields are read as form fields.
 */
const jsonFieldsAsForm: RequestHandler = (req, res, next) => {
  const body = req.body as unknown;
  if (req.is('application/json') && typeof body === 'object' && body !== null) {
    const form = (res.locals as { form: Record<string, string> }).form;
    for (const [name, value] of Object.entries(body)) if (typeof value === 'string' && form[name] === undefined) form[name] = value;
  }
  next();
};

/** The user's answer on the consent page: a code on approval, `access_denied` otherwise, both sent back to the app's redirect URI. */
function decideConsent(ctx: PlatformContext, req: Request, res: Response): void {
  const { state } = ctx;
  const form = Object.fromEntries((['response_type', 'client_id', 'redirect_uri', 'code_challenge', 'code_challenge_method', 'scope', 'state'] as const).map((name) => [name, param(res, name)]));
  const request = authorizeRequest(ctx, form);
  if ('problem' in request) {
    page(res, 400, 'Something went wrong', `<p>${escapeHtml(request.problem)}</p>`);
    return;
  }
  const back = new URL(request.redirectUri);
  back.searchParams.set('state', request.state);
  if (param(res, 'decision') !== 'approve') {
    back.searchParams.set('error', 'access_denied');
    sendBackToApp(req, res, back.toString());
    return;
  }
  let user;
  try {
    user = state.user(param(res, 'user')?.trim() || '@simulated_user');
  } catch (error) {
    page(res, 400, 'Unknown user', `<p>${escapeHtml((error as Error).message)}</p>`);
    return;
  }
  const code = randomBytes(24).toString('base64url');
  state.authorizationCodes.set(code, { userId: user.id, redirectUri: request.redirectUri, challenge: request.challenge, method: request.method, scopes: request.scopes, createdAt: Date.now() });
  back.searchParams.set('code', code);
  sendBackToApp(req, res, back.toString());
}

/**
 * OAuth 2.0 authorization code with PKCE: the consent page (`/i/oauth2/authorize` on the
 * platform's web host), the token endpoint (codes, rotating refresh tokens) and revocation.
 */
export function oauth2Routes(router: Router, ctx: PlatformContext): void {
  const { state } = ctx;

  router.get('/i/oauth2/authorize', (req, res) => {
    const request = authorizeRequest(ctx, req.query as Record<string, unknown>);
    if ('problem' in request) {
      page(res, 400, 'Something went wrong', `<p>${escapeHtml(request.problem)}</p>`);
      return;
    }
    const hidden = Object.entries(req.query as Record<string, string>)
      .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(String(value))}">`)
      .join('');
    res.set('content-security-policy', CONSENT_PAGE_POLICY);
    page(
      res,
      200,
      `CRM Support (simulated) wants to access your account: ${request.scopes.join(', ')}`,
      `<form method="post" action="/i/oauth2/authorize">${hidden}
<label>Signed in as <input name="user" value="" placeholder="@screen_name or numeric id"></label>
<button type="submit" name="decision" value="approve">Authorize app</button>
<button type="submit" name="decision" value="deny">Cancel</button>
</form>`,
    );
  });

  router.post('/i/oauth2/authorize', (req, res) => decideConsent(ctx, req, res));

  router.post('/2/oauth2/token', jsonFieldsAsForm, (req, res) => {
    try {
      checkClient(ctx, res, req.get('authorization'));
      const grant = param(res, 'grant_type');
      if (grant === 'authorization_code') res.json(exchangeCode(ctx, res));
      else if (grant === 'refresh_token') res.json(refresh(ctx, res));
      else throw new TokenError(400, 'unsupported_grant_type', 'grant_type must be authorization_code or refresh_token.');
    } catch (error) {
      if (!(error instanceof TokenError)) throw error;
      res.locals.rejection = error.message;
      res.status(error.status).json({ error: error.code, error_description: error.message });
    }
  });

  router.post('/2/oauth2/revoke', jsonFieldsAsForm, (req, res) => {
    try {
      checkClient(ctx, res, req.get('authorization'));
    } catch (error) {
      if (!(error instanceof TokenError)) throw error;
      res.status(error.status).json({ error: error.code, error_description: error.message });
      return;
    }
    const token = param(res, 'token') ?? '';
    const revoked = state.oauth2AccessTokens.delete(token) || state.oauth2RefreshTokens.delete(token);
    res.json({ revoked });
  });
}
