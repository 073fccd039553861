/** The gate's key for calls of `accountId` on `route` (`GET /2/users/:id/tweets`, from `routeOf`). */
export const gateKeyOf = (accountId: string, route: string): string => `${accountId} ${route}`;

/**
 * Remembers, per account and platform route, until when the platform said it is rate limited,
 * so auth waits for `x-rate-limit-reset` instead of calling again (and being counted) before.
 * The platform counts each route (method and path, whatever ids it names) per user, whichever
 * action calls it: `post` and `reply` share `POST /2/tweets`, a screen name's lookup and
 * `read_user` by screen name share `GET /2/users/by/username/:username`.
 */
export class RateLimitGate {
  private readonly closedUntil = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  /** The time the window opens again, or null when calls may go out. */
  blockedUntil(key: string): Date | null {
    const until = this.closedUntil.get(key);
    if (until === undefined) return null;
    if (until <= this.now()) {
      this.closedUntil.delete(key);
      return null;
    }
    return new Date(until);
  }

  close(key: string, until: Date): void {
    this.closedUntil.set(key, Math.max(until.getTime(), this.closedUntil.get(key) ?? 0));
  }
}

/**
 * The platform refusing every call of the app, whoever makes it, for its monthly usage cap.
 * `until`: when a call may find out again; `resetAt`: the cap's reset as the platform gave it
 * (null when it did not). Spent credit is not one: auth keeps it as its own state (AppCredit).
 */
export type AppRefusal = { reason: 'usage_capped'; until: Date; resetAt: Date | null };

/**
 * Remembers that the platform refuses the whole app (monthly usage cap used up) and until
 * when, so commands fail at once instead of each calling, being refused and retried: until the
 * reset time the platform gave, else for a hold, after which the next call finds out again.
 */
export class AppRefusalGate {
  private refusal: AppRefusal | null = null;

  constructor(private readonly now: () => number = Date.now) {}

  current(): AppRefusal | null {
    if (this.refusal && this.refusal.until.getTime() <= this.now()) this.refusal = null;
    return this.refusal;
  }

  close(refusal: AppRefusal): void {
    this.refusal = refusal;
  }
}
