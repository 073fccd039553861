import { accountActivityForm, checkXaaDelivery, type RawActivityPayload, type XaaDelivery } from '@crm/contracts';

/** The account's owner revoked the app's access on the platform. */
export interface Revoke {
  accountId: string;
  /** The app whose access was revoked, when the platform said. */
  appId: string | null;
  revokedAt: string;
}

/** A `user_event` delivery auth cannot read as a revoke; it can never be read. */
export class InvalidRevoke extends Error {
  override name = 'InvalidRevoke';
}

const record = (value: unknown): Record<string, unknown> | null => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null);

const platformId = (value: unknown): string | null => ((typeof value === 'string' && /^[0-9]{1,30}$/.test(value)) || (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) ? String(value) : null);

/**
 * The revoke in a raw `user_event` delivery (`user_event.revoke` with `source.user_id` and
 * `date_time`); null for any other delivery. The revoking user must be the one the delivery
 * was routed for.
 */
/** An X Activity API `oauth.revoke` as the Account Activity revoke it stands for. */
function xaaForm(delivery: Record<string, unknown>): Record<string, unknown> {
  const check = checkXaaDelivery(delivery);
  if (!check.ok) throw new InvalidRevoke(`not a known X Activity API delivery: ${check.problems.join('; ')}`);
  return accountActivityForm(delivery as XaaDelivery);
}

export function revokeOf(activity: RawActivityPayload): Revoke | null {
  const delivery = activity.api === 'xaa' ? xaaForm(activity.delivery) : activity.delivery;
  const revoke = record(record(delivery.user_event)?.revoke);
  if (activity.kind !== 'user_event' || !revoke) return null;
  const accountId = platformId(record(revoke.source)?.user_id);
  if (!accountId) throw new InvalidRevoke('user_event.revoke.source.user_id is not a platform id');
  if (activity.forUserId !== null && activity.forUserId !== accountId) throw new InvalidRevoke(`forUserId ${activity.forUserId} does not match user_event.revoke.source.user_id ${accountId}`);
  const at = typeof revoke.date_time === 'string' ? new Date(revoke.date_time) : null;
  if (!at || Number.isNaN(at.getTime())) throw new InvalidRevoke('user_event.revoke.date_time is not a date');
  const appId = record(revoke.target)?.app_id;
  return { accountId, appId: appId === undefined || appId === null ? null : platformId(appId), revokedAt: at.toISOString() };
}
