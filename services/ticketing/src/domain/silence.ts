/**
 * The silence alarm: an account that usually gets deliveries (at least `minDeliveries` in the
 * look-back period) and has had none for `silentAfterMs` is silent; the silence ends when a
 * delivery comes again. Decided from what the raw log says of each account, without I/O.
 */

export interface SilenceSettings {
  silentAfterMs: number;
  lookbackMs: number;
  minDeliveries: number;
}

/** An open silence as recorded. */
export interface OpenSilence {
  id: string;
  silentSince: Date;
}

/** What the raw log and the recorded state say of one account at the check. */
export interface AccountTraffic {
  accountId: string;
  /** Connected as auth last reported it: only connected accounts are alarmed about. */
  connected: boolean;
  /** The newest delivery (its raw log seq and receipt time); null when the log holds none. */
  last: { seq: string; at: Date } | null;
  /** When the `minDeliveries`-th newest delivery was received; null when there are fewer. */
  nthNewestAt: Date | null;
  open: OpenSilence | null;
  /** When the first delivery after the open silence's last one was received; null when none came. */
  resumedAt: Date | null;
}

export type SilenceDecision =
  | { kind: 'silent'; accountId: string; silentSince: Date; lastSeq: string }
  | { kind: 'delivering'; accountId: string; silence: OpenSilence; resumedAt: Date };

/** Whether the account had its usual traffic: at least `minDeliveries` in the look-back period before `now`. */
export function hasUsualTraffic(traffic: Pick<AccountTraffic, 'nthNewestAt'>, now: Date, settings: SilenceSettings): boolean {
  return traffic.nthNewestAt !== null && traffic.nthNewestAt.getTime() >= now.getTime() - settings.lookbackMs;
}

/** What changes for one account at `now`: a silence begins, ends, or nothing. */
export function decideSilence(traffic: AccountTraffic, now: Date, settings: SilenceSettings): SilenceDecision | null {
  if (traffic.open) {
    // Ends once, whatever the account's status: a delivery came after the silence's last one.
    return traffic.resumedAt ? { kind: 'delivering', accountId: traffic.accountId, silence: traffic.open, resumedAt: traffic.resumedAt } : null;
  }
  if (!traffic.connected || !traffic.last) return null;
  if (now.getTime() - traffic.last.at.getTime() < settings.silentAfterMs) return null;
  if (!hasUsualTraffic(traffic, now, settings)) return null;
  return { kind: 'silent', accountId: traffic.accountId, silentSince: traffic.last.at, lastSeq: traffic.last.seq };
}

export function decideSilences(accounts: AccountTraffic[], now: Date, settings: SilenceSettings): SilenceDecision[] {
  return accounts.flatMap((traffic) => decideSilence(traffic, now, settings) ?? []);
}
