import axios, { type AxiosResponse } from 'axios';
import { cleanJson } from '@crm/contracts';
import { registerSecret, type Logger } from '@crm/logging';
import type { PlatformRequest } from '../../domain/actions';
import { ConfigurationError, CreditsDepleted, NoAnswer, PlatformFailed, PlatformNotReached, PlatformRejected, RateLimited, UsageCapped } from '../../domain/platform-errors';
import { platformRefusals } from '../metrics';
import { basicCredentials, encodeParameters, OAuth1Signer, type TokenPair } from './oauth1';

/** Whose credentials sign the call. */
export type Signer =
  | { kind: 'user'; token: TokenPair }
  | { kind: 'consumer'; oauth: Record<string, string> }
  | { kind: 'request-token'; token: TokenPair; oauth: Record<string, string> }
  | { kind: 'app' }
  /** A user's OAuth 2.0 access token, sent as a bearer token. */
  | { kind: 'oauth2-user'; accessToken: string }
  /** The app's OAuth 2.0 client, authenticated with Basic at the token endpoint (a confidential client). */
  | { kind: 'oauth2-client'; clientId: string; clientSecret: string };

export interface PlatformAnswer {
  status: number;
  /** Parsed JSON or form answer; null for an empty body. */
  data: unknown;
}

export interface PlatformClientOptions {
  baseUrl: string;
  consumerKey: string;
  consumerSecret: string;
  timeoutMs: number;
  logger: Logger;
}

/** Connection errors after which the request surely never reached the platform. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ERR_INVALID_URL']);

function parseBody(response: AxiosResponse<string>): unknown {
  const text = response.data ?? '';
  if (text === '') return null;
  const type = String(response.headers['content-type'] ?? '');
  if (type.includes('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(text));
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * What the platform said went wrong: the first `{code, message}` of a v1.1 `{"errors":[...]}`
 * answer, an OAuth 2.0 token endpoint's RFC 6749 `{error, error_description}`, or for v2
 * problem details (`{title, detail, type, status}`, maybe with `errors: [{message}]` or
 * `errors: [{detail}]` naming the parameter) the most specific message and the problem's title.
 */
/** The last segment of a v2 problem's `type` URI (`https://api.x.com/2/problems/usage-capped` → `usage-capped`), or null. */
export function problemTypeOf(data: unknown): string | null {
  const type = (data as { type?: unknown } | null)?.type;
  return typeof type === 'string' ? (type.split('/').pop() ?? null) : null;
}

export function platformErrorOf(data: unknown): { code: number | null; message: string; problem: string | null } {
  const answer = data as { errors?: { code?: unknown; message?: unknown; detail?: unknown }[]; title?: unknown; detail?: unknown; type?: unknown; error?: unknown; error_description?: unknown } | null;
  const problem = typeof answer?.title === 'string' && typeof answer.type === 'string' ? answer.title : null;
  const first = answer?.errors?.[0];
  if (first && typeof first.message === 'string') return { code: typeof first.code === 'number' ? first.code : null, message: first.message, problem };
  if (first && typeof first.detail === 'string') return { code: null, message: first.detail, problem };
  if (typeof answer?.error === 'string') return { code: null, message: typeof answer.error_description === 'string' ? `${answer.error}: ${answer.error_description}` : answer.error, problem };
  if (typeof answer?.detail === 'string') return { code: null, message: answer.detail, problem };
  return { code: null, message: typeof data === 'string' && data ? data.slice(0, 300) : 'no error message', problem };
}

/**
 * Calls the platform, signed with OAuth 1.0a (user, consumer or request token) or with the
 * app's bearer token, and turns every way a call can fail into one of the domain's errors.
 * Nothing about a request but its method, path and status is logged.
 */
export class PlatformClient {
  private readonly signer: OAuth1Signer;
  private bearer: Promise<string> | null = null;
  private bearerValue: string | null = null;

  constructor(private readonly options: PlatformClientOptions) {
    this.signer = new OAuth1Signer({ key: options.consumerKey, secret: options.consumerSecret });
  }

  async call(request: PlatformRequest, signer: Signer): Promise<PlatformAnswer> {
    if (signer.kind === 'oauth2-user') return this.send(request, () => `Bearer ${signer.accessToken}`);
    if (signer.kind === 'oauth2-client') return this.send(request, () => basicCredentials(signer.clientId, signer.clientSecret));
    if (signer.kind !== 'app') return this.send(request, (url, form) => this.oauthHeader(request.method, url, form, signer));
    const token = await this.appToken();
    try {
      return await this.send(request, () => `Bearer ${token}`);
    } catch (error) {
      if (!(error instanceof PlatformRejected && error.invalidToken)) throw error;
      // The bearer token was invalidated: fetch a new one once and try again.
      this.forgetAppToken(token);
      const fresh = await this.appToken();
      return this.send(request, () => `Bearer ${fresh}`);
    }
  }

  /** The app-only bearer token, fetched once and shared until the platform refuses it. */
  appToken(): Promise<string> {
    this.bearer ??= this.fetchAppToken().then(
      (token) => {
        this.bearerValue = token;
        return token;
      },
      (error: unknown) => {
        this.bearer = null;
        throw error;
      },
    );
    return this.bearer;
  }

  /** Drops the cached token, unless another call already replaced it with a fresh one. */
  private forgetAppToken(stale: string): void {
    if (this.bearerValue !== stale) return;
    this.bearer = null;
    this.bearerValue = null;
  }

  private async fetchAppToken(): Promise<string> {
    const request: PlatformRequest = { method: 'POST', path: '/oauth2/token', form: { grant_type: 'client_credentials' } };
    try {
      const answer = await this.send(request, () => basicCredentials(this.options.consumerKey, this.options.consumerSecret));
      const token = (answer.data as { token_type?: string; access_token?: string } | null)?.access_token;
      if (!token) throw new PlatformFailed(answer.status, null, 'the platform answered the app token request without a token');
      registerSecret(token);
      return token;
    } catch (error) {
      if (error instanceof PlatformRejected && error.status === 403 && error.platformCode === 99) {
        throw new ConfigurationError('the platform refused the app credentials (403, code 99): check SOCIAL_CONSUMER_KEY and SOCIAL_CONSUMER_SECRET');
      }
      throw error;
    }
  }

  private oauthHeader(method: string, url: string, form: Record<string, string> | undefined, signer: Extract<Signer, { kind: 'user' | 'consumer' | 'request-token' }>): string {
    if (signer.kind === 'user') return this.signer.header({ method, url, form }, signer.token);
    if (signer.kind === 'consumer') return this.signer.header({ method, url, form, oauth: signer.oauth });
    return this.signer.header({ method, url, form, oauth: signer.oauth }, signer.token);
  }

  private async send(request: PlatformRequest, authorization: (url: string, form?: Record<string, string>) => string): Promise<PlatformAnswer> {
    const query = request.query && Object.keys(request.query).length > 0 ? `?${encodeParameters(request.query)}` : '';
    const url = `${this.options.baseUrl.replace(/\/$/, '')}${request.path}${query}`;
    const headers: Record<string, string> = { authorization: authorization(url, request.form), accept: 'application/json' };
    let data: string | undefined;
    if (request.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      data = encodeParameters(request.form);
    } else if (request.json !== undefined) {
      headers['content-type'] = 'application/json';
      data = JSON.stringify(request.json);
    }
    const started = Date.now();
    let response: AxiosResponse<string>;
    try {
      response = await axios.request<string>({
        method: request.method,
        url,
        data,
        headers,
        timeout: this.options.timeoutMs,
        maxRedirects: 0,
        responseType: 'text',
        transformResponse: [(body: string) => body],
        validateStatus: () => true,
      });
    } catch (error) {
      // Never pass axios' error on: it holds the request's headers, i.e. the signed credentials.
      const code = (error as { code?: string }).code ?? 'unknown';
      this.options.logger.warn('platform call got no answer', { method: request.method, path: request.path, code, ms: Date.now() - started });
      if (NOT_SENT.has(code)) throw new PlatformNotReached(`could not reach the platform (${code})`);
      throw new NoAnswer(code === 'ECONNABORTED' || code === 'ETIMEDOUT' ? `no answer from the platform within ${this.options.timeoutMs} ms` : `the connection to the platform broke off (${code})`);
    }
    // What the platform answers may hold text PostgreSQL cannot store (NUL, lone surrogates).
    const body = cleanJson(parseBody(response));
    this.options.logger.debug('platform call', { method: request.method, path: request.path, status: response.status, ms: Date.now() - started });
    if (response.status >= 200 && response.status < 300) return { status: response.status, data: body };
    const { code, message, problem } = platformErrorOf(body);
    const reset = Number(response.headers['x-rate-limit-reset']);
    const resetAt = Number.isFinite(reset) && reset > 0 ? new Date(reset * 1000) : null;
    const problemType = problemTypeOf(body);
    // A usage cap is a 429 too, but not one a retry in 15 minutes cures: told apart by its problem type.
    if (response.status === 429 && problemType === 'usage-capped') {
      platformRefusals.labels('usage_capped').inc();
      throw new UsageCapped(resetAt);
    }
    if (response.status === 402 || problemType === 'credits-depleted') {
      platformRefusals.labels('credits_depleted').inc();
      throw new CreditsDepleted();
    }
    if (response.status === 429) {
      platformRefusals.labels('rate_limited').inc();
      throw new RateLimited(resetAt ?? new Date(Date.now() + 60_000));
    }
    if (response.status >= 500) throw new PlatformFailed(response.status, code, `the platform failed (${response.status}): ${message}`);
    throw new PlatformRejected(response.status, code, message, problem);
  }
}
