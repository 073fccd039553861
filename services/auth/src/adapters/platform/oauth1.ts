import { createHmac, randomBytes } from 'node:crypto';
import OAuth from 'oauth-1.0a';

export interface TokenPair {
  key: string;
  secret: string;
}

export interface SignableRequest {
  method: string;
  /** The full URL, query included: query parameters are signed. */
  url: string;
  /** Form body parameters (signed); a JSON body is not part of the signature. */
  form?: Record<string, string>;
  /** Protocol parameters that travel in the header, e.g. oauth_callback, oauth_verifier. */
  oauth?: Record<string, string>;
}

/** Fixed nonce and timestamp, for checking against published examples. */
export interface SigningOverrides {
  nonce?: string;
  timestamp?: number;
}

/** OAuth 1.0a HMAC-SHA1 request signing with the oauth-1.0a library, hashing with node:crypto. */
export class OAuth1Signer {
  constructor(private readonly consumer: TokenPair) {}

  private client(overrides: SigningOverrides): OAuth {
    const oauth = new OAuth({
      consumer: this.consumer,
      signature_method: 'HMAC-SHA1',
      hash_function: (base, key) => createHmac('sha1', key).update(base).digest('base64'),
    });
    // The library's own nonce comes from Math.random; a nonce must not be guessable.
    oauth.getNonce = () => overrides.nonce ?? randomBytes(16).toString('hex');
    if (overrides.timestamp !== undefined) oauth.getTimeStamp = () => overrides.timestamp!;
    return oauth;
  }

  /** The oauth_* parameters of a request, oauth_signature included. */
  authorize(request: SignableRequest, token?: TokenPair, overrides: SigningOverrides = {}): OAuth.Authorization {
    const data = { ...request.form, ...request.oauth };
    return this.client(overrides).authorize({ url: request.url, method: request.method, data }, token);
  }

  /** The `Authorization: OAuth ...` header value. */
  header(request: SignableRequest, token?: TokenPair, overrides: SigningOverrides = {}): string {
    return this.client(overrides).toHeader(this.authorize(request, token, overrides)).Authorization;
  }
}

/** RFC 3986 percent-encoding, as OAuth 1.0a wants for query strings and form bodies. */
export function percentEncode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
}

export function encodeParameters(params: Record<string, string>): string {
  return Object.entries(params)
    .map(([key, value]) => `${percentEncode(key)}=${percentEncode(value)}`)
    .join('&');
}

/** `Basic base64(urlencoded key ":" urlencoded secret)`, the app-only token request's credentials. */
export function basicCredentials(consumerKey: string, consumerSecret: string): string {
  return `Basic ${Buffer.from(`${encodeURIComponent(consumerKey)}:${encodeURIComponent(consumerSecret)}`).toString('base64')}`;
}
