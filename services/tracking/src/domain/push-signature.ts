import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The provider's task pushes are signed: `x-provider-signature: sha256=<hex HMAC-SHA256 of the
 * raw body with the client's push secret>` (infra/simulators/tracking-provider/README.md).
 */
export const PUSH_SIGNATURE_HEADER = 'x-provider-signature';

export function signPush(secret: string, rawBody: Buffer | string): string {
  return `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`;
}

/** Checks a push's signature over the exact bytes received, in constant time. */
export function verifyPush(secret: string, rawBody: Buffer, header: string | undefined): boolean {
  if (!header) return false;
  const expected = Buffer.from(signPush(secret, rawBody));
  const given = Buffer.from(header);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
