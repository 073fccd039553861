import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The Account Activity API's webhook cryptography: both the CRC answer and the delivery
 * signature are `sha256=` + base64(HMAC-SHA256(consumer secret, bytes)).
 */
export function sign(consumerSecret: string, bytes: Buffer | string): string {
  return `sha256=${createHmac('sha256', consumerSecret).update(bytes).digest('base64')}`;
}

/** Tokens the platform sends look like this; anything else is refused so the CRC route cannot sign arbitrary text. */
const CRC_TOKEN_PATTERN = /^[A-Za-z0-9+/=_-]{16,128}$/;

export function isPlausibleCrcToken(token: unknown): token is string {
  return typeof token === 'string' && CRC_TOKEN_PATTERN.test(token);
}

/** The body of a CRC answer. */
export function crcResponse(consumerSecret: string, crcToken: string): { response_token: string } {
  return { response_token: sign(consumerSecret, crcToken) };
}

/** Verifies a delivery's `x-twitter-webhooks-signature` over the exact bytes received, in constant time. */
export function verifySignature(consumerSecret: string, rawBody: Buffer, header: string | undefined): boolean {
  if (!header || !header.startsWith('sha256=')) return false;
  const expected = Buffer.from(sign(consumerSecret, rawBody));
  const given = Buffer.from(header);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

export const SIGNATURE_HEADER = 'x-twitter-webhooks-signature';
