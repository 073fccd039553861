import type { RefusalKind } from '@crm/contracts';

/**
 * How a call to the platform can end other than with an answer in the 2xx range. Each says
 * whether the call could have had an effect: that decides whether it may be tried again.
 */

/**
 * The platform refused the request (4xx other than 429), with its code and message. v1.1
 * answers `{errors: [{code, message}]}`; v2 answers problem details `{title, detail, type,
 * status}`, which carry no code: `problem` is then their title.
 */
export class PlatformRejected extends Error {
  override name = 'PlatformRejected';
  constructor(
    readonly status: number,
    readonly platformCode: number | null,
    readonly platformMessage: string,
    readonly problem: string | null = null,
  ) {
    super(`the platform answered ${status}${platformCode === null ? '' : ` (code ${platformCode})`}: ${platformMessage}`);
  }

  /**
   * The token is invalid, expired or revoked: v1.1's 401 code 89, or any 401 problem from a v2
   * route (v2 does not tell a refused token from a bad signature, and auth's signatures are the
   * ones v1.1 accepts, so a v2 401 is the token).
   */
  get invalidToken(): boolean {
    return this.status === 401 && (this.platformCode === 89 || (this.platformCode === null && this.problem !== null));
  }
}

/** The platform's refusals of an action that are the caller's own, kept as such (a 401 that is not the token: the account may not do it). */
const RELAYED_KIND: Partial<Record<number, RefusalKind>> = { 400: 'invalid', 401: 'forbidden', 403: 'forbidden', 404: 'not_found', 409: 'conflict' };

/**
 * What kind of refusal the platform's refusal is to auth's caller: the one place this is decided.
 * A refused token is a conflict (the account must be connected again). An action relays the
 * platform's answer to the caller's own request, so its refusals of what the caller named stay
 * what they are; a call auth makes for itself (registering a webhook, subscribing an account) is
 * not the caller's to get wrong, so any other refusal is the platform rejecting it.
 */
export function platformRefusalKind(refusal: { status: number | null; invalidToken: boolean }, relayed: boolean): RefusalKind {
  if (refusal.invalidToken) return 'conflict';
  return (relayed && refusal.status !== null ? RELAYED_KIND[refusal.status] : undefined) ?? 'upstream_rejected';
}

/** 429: nothing was done; the window opens again at `resetAt`. */
export class RateLimited extends Error {
  override name = 'RateLimited';
  constructor(readonly resetAt: Date) {
    super(`rate limited by the platform until ${resetAt.toISOString()}`);
  }

  retryAfterSeconds(now = Date.now()): number {
    return Math.max(1, Math.ceil((this.resetAt.getTime() - now) / 1000));
  }
}

/**
 * 429 whose problem `type` is `usage-capped`: the app's monthly cap (pay-per-use: a number of
 * post reads per billing cycle) is used up. Nothing was done, and nothing will be until the
 * cycle turns: `resetAt` when the platform says when (`x-rate-limit-reset`), else null.
 */
export class UsageCapped extends Error {
  override name = 'UsageCapped';
  constructor(readonly resetAt: Date | null) {
    super(`the platform's monthly usage cap is used up${resetAt ? ` until ${resetAt.toISOString()}` : ' (the platform gave no reset time)'}`);
  }
}

/** 402 whose problem `type` is `credits-depleted`: the app's prepaid credits are spent; nothing goes through until credits are added. */
export class CreditsDepleted extends Error {
  override name = 'CreditsDepleted';
  constructor() {
    super("the platform refuses every request: the app's credits are depleted (add credits in the platform's developer console)");
  }
}

/**
 * The app is out of credit (the platform answered 402 credits-depleted and credit has not
 * been seen back since): auth makes no call for a read, and says when to ask again.
 */
export class OutOfCredit extends Error {
  override name = 'OutOfCredit';
  constructor(readonly retryAfterSeconds: number) {
    super(
      "the app's prepaid credits on the platform are spent, so auth cannot read from the platform now: add credits in the platform's developer console (an admin can then ask auth to check at once with POST /v1/app/credit-check); commands sent meanwhile are held and sent once credit is back",
    );
  }
}

/** The request never reached the platform (connection refused, name not found): safe to try again. */
export class PlatformNotReached extends Error {
  override name = 'PlatformNotReached';
}

/** The platform failed (5xx). Whether a send took effect cannot be told. */
export class PlatformFailed extends Error {
  override name = 'PlatformFailed';
  constructor(
    readonly status: number,
    readonly platformCode: number | null,
    message: string,
  ) {
    super(message);
  }
}

/** The request left but no answer came (timeout, connection cut): whether it took effect cannot be told. */
export class NoAnswer extends Error {
  override name = 'NoAnswer';
}

/** The platform refuses the app's own credentials (403 code 99): an operator must fix the configuration. */
export class ConfigurationError extends Error {
  override name = 'ConfigurationError';
}
