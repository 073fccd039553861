import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * OAuth 1.0a HMAC-SHA1 as the platform checks it (RFC 5849 section 3.4), written here on
 * purpose rather than taken from the client library auth uses: the simulator is the
 * independent check that auth signs correctly.
 */

/** RFC 3986 percent-encoding: everything but A-Z a-z 0-9 - . _ ~ is encoded. */
export function percentEncode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** Parses `OAuth k="v", k2="v2"` into decoded pairs; null when it is not an OAuth header. */
export function parseOAuthHeader(header: string | undefined): Map<string, string> | null {
  if (!header || !/^OAuth\s/i.test(header)) return null;
  const params = new Map<string, string>();
  const pattern = /([A-Za-z0-9_.~%-]+)\s*=\s*"([^"]*)"/g;
  for (const match of header.slice(6).matchAll(pattern)) {
    try {
      params.set(decodeURIComponent(match[1]!), decodeURIComponent(match[2]!));
    } catch {
      return null;
    }
  }
  return params;
}

/** Pairs of a query string or form body, decoded as forms are (`+` is a space). */
export function decodePairs(encoded: string): [string, string][] {
  return [...new URLSearchParams(encoded)];
}

/** `scheme://host[:port]/path`, lower-case scheme and host, default ports left out. */
export function baseUrl(protocol: string, host: string, path: string): string {
  const scheme = protocol.toLowerCase();
  let authority = host.toLowerCase();
  if ((scheme === 'http' && authority.endsWith(':80')) || (scheme === 'https' && authority.endsWith(':443'))) {
    authority = authority.slice(0, authority.lastIndexOf(':'));
  }
  return `${scheme}://${authority}${path}`;
}

/** The signature base string: method, base URL and the sorted, encoded parameters. */
export function signatureBaseString(method: string, url: string, params: [string, string][]): string {
  const normalized = params
    .map(([key, value]) => [percentEncode(key), percentEncode(value)] as const)
    .sort(([ak, av], [bk, bv]) => (ak === bk ? (av < bv ? -1 : av > bv ? 1 : 0) : ak < bk ? -1 : 1))
    .map(([key, value]) => `${key}=${value}`)
    .join('&');
  return [method.toUpperCase(), percentEncode(url), percentEncode(normalized)].join('&');
}

/** base64(HMAC-SHA1(encoded consumer secret & encoded token secret, base string)). */
export function hmacSha1(baseString: string, consumerSecret: string, tokenSecret = ''): string {
  return createHmac('sha1', `${percentEncode(consumerSecret)}&${percentEncode(tokenSecret)}`).update(baseString).digest('base64');
}

export function sameSignature(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Remembers nonces for as long as their timestamps are acceptable, so that a request
 * replayed within the window is refused; older ones fail the timestamp check anyway.
 */
export class NonceLedger {
  private readonly seen = new Map<string, number>();

  constructor(private readonly windowSeconds: number) {}

  /** Records the nonce; false when this consumer/token already used it. */
  claim(consumerKey: string, token: string, nonce: string, timestamp: number, nowSeconds: number): boolean {
    this.prune(nowSeconds);
    const key = `${consumerKey}\n${token}\n${nonce}`;
    if (this.seen.has(key)) return false;
    this.seen.set(key, timestamp);
    return true;
  }

  private prune(nowSeconds: number): void {
    for (const [key, timestamp] of this.seen) {
      if (Math.abs(nowSeconds - timestamp) > this.windowSeconds) this.seen.delete(key);
    }
  }
}
