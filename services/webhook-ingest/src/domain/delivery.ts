import { createHash } from 'node:crypto';
import { checkDelivery, checkXaaDelivery, xaaNoticeOf, exceedsJsonDepth, MAX_JSON_DEPTH, type DeliveryKind } from '@crm/contracts';

/** Which of the platform's webhook APIs a delivery came through: Account Activity (aaa) or X Activity (xaa). */
export type WebhookApi = 'aaa' | 'xaa';

export type InspectedDelivery =
  | { ok: true; api: WebhookApi; kind: DeliveryKind; forUserId: string | null; eventCount: number; bodySha256: string; delivery: Record<string, unknown>; json: string; eventUuid?: string }
  | { ok: false; code: 'invalid_json' | 'too_deep' | 'unknown_delivery'; message: string };

/** The platform's notice to the app (an XAA replay job finished): answered, logged, not published. */
export interface PlatformNotice {
  ok: 'notice';
  eventType: string;
  payload: Record<string, unknown>;
}

type Rejected = Extract<InspectedDelivery, { ok: false }>;

/** The parsed body, and its JSON text (valid, then) as received. */
function parse(raw: Buffer): { body: unknown; json: string } | Rejected {
  const text = raw.toString('utf8');
  if (exceedsJsonDepth(text, MAX_JSON_DEPTH)) return { ok: false, code: 'too_deep', message: `the body nests deeper than ${MAX_JSON_DEPTH} levels` };
  try {
    return { body: JSON.parse(text), json: text };
  } catch {
    return { ok: false, code: 'invalid_json', message: 'the body is not valid JSON' };
  }
}

/** Parses verified bytes of an X Activity API delivery and says whether it is one we know. */
export function inspectXaaDelivery(raw: Buffer): InspectedDelivery | PlatformNotice {
  const parsed = parse(raw);
  if ('ok' in parsed) return parsed;
  const notice = xaaNoticeOf(parsed.body);
  if (notice) return { ok: 'notice', ...notice };
  const check = checkXaaDelivery(parsed.body);
  if (!check.ok) return { ok: false, code: 'unknown_delivery', message: `not a known X Activity API delivery: ${check.problems.join('; ')}` };
  const bodySha256 = createHash('sha256').update(raw).digest('hex');
  return { ok: true, api: 'xaa', kind: check.kind, forUserId: check.forUserId, eventCount: 1, bodySha256, delivery: parsed.body as Record<string, unknown>, json: parsed.json, eventUuid: check.eventUuid };
}

/** Parses verified bytes and says whether they are an Account Activity delivery we know. */
export function inspectDelivery(raw: Buffer): InspectedDelivery {
  const parsed = parse(raw);
  if ('ok' in parsed) return parsed;
  const body = parsed.body;
  const check = checkDelivery(body);
  if (!check.ok) return { ok: false, code: 'unknown_delivery', message: `not a known Account Activity delivery: ${check.problems.join('; ')}` };
  return {
    ok: true,
    api: 'aaa',
    kind: check.kind,
    forUserId: check.forUserId ?? revokingUserId(body as Record<string, unknown>),
    eventCount: check.eventCount,
    bodySha256: createHash('sha256').update(raw).digest('hex'),
    delivery: body as Record<string, unknown>,
    json: parsed.json,
  };
}

/** `user_event` (revoke) has no for_user_id; the account is the revoking user (its id checked by checkDelivery). */
function revokingUserId(body: Record<string, unknown>): string | null {
  const revoke = (body.user_event as { revoke?: { source?: { user_id?: unknown } } } | undefined)?.revoke;
  const id = revoke?.source?.user_id;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : null;
}

/** Routing key on `social.activity`: `<payload kind>.<for_user_id>`. */
export function activityRoutingKey(kind: DeliveryKind, forUserId: string | null): string {
  return `${kind}.${forUserId ?? 'unknown'}`;
}

export const ENV_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
