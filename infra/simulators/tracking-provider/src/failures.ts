/**
 * Failure injection for the control API: the next requests to the provider's routes (or the
 * router's) fail in a chosen way, for `count` requests or until cleared.
 */
export const FAILURE_TARGETS = ['provider', 'router'] as const;
export type FailureTarget = (typeof FAILURE_TARGETS)[number];

/** error: answer `status`; latency: answer normally after `latencyMs`; timeout: never answer; reset: drop the connection. */
export const FAILURE_MODES = ['error', 'latency', 'timeout', 'reset'] as const;
export type FailureMode = (typeof FAILURE_MODES)[number];

export interface FailureRule {
  target: FailureTarget;
  mode: FailureMode;
  status: number;
  latencyMs: number;
  /** Requests still to fail; null: until cleared. */
  remaining: number | null;
  /** Only requests for this client (provider routes), when set. */
  clientId: string | null;
}

export class Failures {
  private readonly rules = new Map<FailureTarget, FailureRule>();

  set(rule: FailureRule): void {
    this.rules.set(rule.target, rule);
  }

  clear(target?: FailureTarget): void {
    if (target) this.rules.delete(target);
    else this.rules.clear();
  }

  list(): FailureRule[] {
    return [...this.rules.values()];
  }

  /** The failure that applies to this request, counting it against the rule's budget. */
  take(target: FailureTarget, clientId: string | null): FailureRule | null {
    const rule = this.rules.get(target);
    if (!rule || (rule.clientId !== null && rule.clientId !== clientId)) return null;
    if (rule.remaining !== null) {
      rule.remaining -= 1;
      if (rule.remaining <= 0) this.rules.delete(target);
    }
    return { ...rule };
  }
}
