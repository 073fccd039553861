import { basicCredentials, OAuth1Signer } from '../../services/auth/src/adapters/platform/oauth1';
import { crcResponse, sign, verifySignature } from '../../libs/webhook-signature/src';
import { readSocial } from './fixtures';

/**
 * The platform's published signing examples (social/oauth1-vector.md), read from the
 * document itself, against auth's OAuth 1.0a signer and libs/webhook-signature.
 */

const text = readSocial('oauth1-vector.md');

/** The `| field | value |` table of the worked example. */
function table(): Record<string, string> {
  const rows: Record<string, string> = {};
  for (const match of text.matchAll(/^\|\s*([^|]+?)\s*\|\s*([^|]+?)\s*\|\s*$/gm)) rows[match[1]!] = match[2]!;
  return rows;
}

function required(rows: Record<string, string>, field: string): string {
  const value = rows[field];
  if (value === undefined) throw new Error(`oauth1-vector.md has no '${field}' row`);
  return value;
}

/** `key=value&key=value` as the document writes the form body (unencoded). */
function form(body: string): Record<string, string> {
  return Object.fromEntries(body.split('&').map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));
}

const webhookVectors = [...text.matchAll(/secret `([^`]+)`, raw body `([^`]+)` ->\s*`(sha256=[^`]+)`/g)].map((m) => ({ secret: m[1]!, body: m[2]!, expected: m[3]! }));
const crcVectors = [...text.matchAll(/consumer secret `([^`]+)`, crc_token `([^`]+)` ->\s*`(sha256=[^`]+)`/g)].map((m) => ({ secret: m[1]!, token: m[2]!, expected: m[3]! }));
const appOnly = /App-only token: key `([^`]+)`, secret `([^`]+)`\s*->\s*`Authorization: (Basic [^`]+)`/.exec(text);

let checked = 0;
afterAll(() => {
  console.log(`conformance: ${checked} published signing vectors checked`);
});

describe('the published OAuth 1.0a worked example', () => {
  const rows = table();
  const signer = new OAuth1Signer({ key: required(rows, 'oauth_consumer_key'), secret: required(rows, 'consumer secret') });
  const token = { key: required(rows, 'oauth_token'), secret: required(rows, 'token secret') };
  const overrides = { nonce: required(rows, 'oauth_nonce'), timestamp: Number(required(rows, 'oauth_timestamp')) };

  it('uses what auth signs with: HMAC-SHA1, OAuth 1.0', () => {
    expect(rows.oauth_signature_method).toBe('HMAC-SHA1');
    expect(rows.oauth_version).toBe('1.0');
  });

  it("gives the document's signature for its request", () => {
    const signed = signer.authorize(
      { method: required(rows, 'method'), url: `${required(rows, 'url')}?${required(rows, 'query')}`, form: form(required(rows, 'form body')) },
      token,
      overrides,
    );
    expect(signed.oauth_signature).toBe(required(rows, 'expected oauth_signature'));
    checked += 1;
  });

  it("gives the document's signature for the same request at the other host it names", () => {
    const other = /With `(https:\/\/[^`]+)` as the URL the same inputs give\s*`([^`]+)`/.exec(text);
    expect(other).not.toBeNull();
    const signed = signer.authorize({ method: required(rows, 'method'), url: `${other![1]}?${required(rows, 'query')}`, form: form(required(rows, 'form body')) }, token, overrides);
    expect(signed.oauth_signature).toBe(other![2]);
    checked += 1;
  });

  it('gives the app-only basic credentials of the document', () => {
    expect(appOnly).not.toBeNull();
    expect(basicCredentials(appOnly![1]!, appOnly![2]!)).toBe(appOnly![3]);
    checked += 1;
  });
});

describe('the published webhook vectors', () => {
  it('are in the document', () => {
    expect(crcVectors.length).toBeGreaterThan(0);
    expect(webhookVectors.length).toBeGreaterThan(0);
  });

  it.each(crcVectors.map((v) => [v.token, v] as const))('CRC for token %s', (_token, { secret, token, expected }) => {
    expect(crcResponse(secret, token).response_token).toBe(expected);
    checked += 1;
  });

  it.each(webhookVectors.map((v) => [v.body, v] as const))('delivery signature of %s', (_body, { secret, body, expected }) => {
    expect(sign(secret, Buffer.from(body))).toBe(expected);
    expect(verifySignature(secret, Buffer.from(body), expected)).toBe(true);
    checked += 1;
  });
});
