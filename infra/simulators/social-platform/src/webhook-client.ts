import { randomBytes } from 'node:crypto';
import axios, { type AxiosResponse } from 'axios';
import { sameSecret } from '@crm/secrets';
import { crcResponse, sign, SIGNATURE_HEADER } from '@crm/webhook-signature';

/** The platform gives a CRC answer 3 seconds. */
export const CRC_TIMEOUT_MS = 3_000;
export const DELIVERY_TIMEOUT_MS = 10_000;

export interface WebhookAnswer {
  status: number;
  /** Parsed JSON when the answer is JSON, else its text. */
  body: unknown;
}

export class WebhookUnreachable extends Error {
  override name = 'WebhookUnreachable';
}

function bodyOf(response: AxiosResponse<string>): unknown {
  const text = response.data ?? '';
  try {
    return text === '' ? null : (JSON.parse(text) as unknown);
  } catch {
    return text;
  }
}

function describeFailure(error: unknown, url: string, timeoutMs: number): string {
  const code = (error as { code?: string }).code;
  if (code === 'ECONNABORTED' || code === 'ETIMEDOUT') return `no answer from ${url} within ${timeoutMs} ms`;
  return `could not reach ${url}: ${code ?? (error as Error).message}`;
}

/** Plain requests: no redirects followed, any status accepted, the body kept as text. */
const requestOptions = (timeoutMs: number) => ({
  timeout: timeoutMs,
  maxRedirects: 0,
  responseType: 'text' as const,
  transformResponse: [(data: string) => data],
  validateStatus: () => true,
});

export interface SendOptions {
  /** A signature header to send instead of the right one (tests of rejection); null sends none. */
  signature?: string | null;
  timeoutMs?: number;
}

/**
 * POSTs delivery bytes exactly as given, signed like the platform signs them. Answers with
 * any status; throws WebhookUnreachable only when no answer came.
 */
export async function sendDelivery(url: string, secret: string, bytes: Buffer, options: SendOptions = {}): Promise<WebhookAnswer> {
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const signature = options.signature === undefined ? sign(secret, bytes) : options.signature;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (signature !== null) headers[SIGNATURE_HEADER] = signature;
  try {
    const response = await axios.post<string>(url, bytes, { ...requestOptions(timeoutMs), headers });
    return { status: response.status, body: bodyOf(response) };
  } catch (error) {
    throw new WebhookUnreachable(describeFailure(error, url, timeoutMs));
  }
}

export interface CrcResult {
  valid: boolean;
  /** The webhook's HTTP status; null when it did not answer. */
  status: number | null;
  reason?: string;
}

/**
 * Runs a challenge-response check as the platform does: a fresh random token, and the
 * answer must be 200 with `response_token` = sha256=base64(HMAC-SHA256(secret, token)).
 */
export async function runCrcCheck(url: string, secret: string, { timeoutMs = CRC_TIMEOUT_MS } = {}): Promise<CrcResult> {
  const token = randomBytes(32).toString('base64url');
  const target = new URL(url);
  target.searchParams.set('crc_token', token);
  let response: AxiosResponse<string>;
  try {
    response = await axios.get<string>(target.toString(), requestOptions(timeoutMs));
  } catch (error) {
    return { valid: false, status: null, reason: describeFailure(error, url, timeoutMs) };
  }
  if (response.status !== 200) return { valid: false, status: response.status, reason: `expected status 200, got ${response.status}` };
  const body = bodyOf(response);
  const given = typeof body === 'object' && body !== null ? (body as { response_token?: unknown }).response_token : undefined;
  if (typeof given !== 'string') return { valid: false, status: 200, reason: 'the answer has no response_token string' };
  if (!sameSecret(given, crcResponse(secret, token).response_token)) {
    return { valid: false, status: 200, reason: 'response_token does not match the HMAC-SHA256 of the token with the consumer secret' };
  }
  return { valid: true, status: 200 };
}
