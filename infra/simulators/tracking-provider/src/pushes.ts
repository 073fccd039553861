import { createHmac } from 'node:crypto';
import type { Logger } from '@crm/logging';

/**
 * Task webhooks: a client registers a URL and a shared secret; on each change of one of its
 * tasks (status, ETA) the simulator POSTs the task record there, signed
 * `x-provider-signature: sha256=<hex HMAC-SHA256 of the raw body with the secret>`.
 */
export const PUSH_SIGNATURE_HEADER = 'x-provider-signature';

export interface Webhook {
  url: string;
  secret: string;
}

export const signPush = (secret: string, body: string): string => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

export interface PushOutcome {
  at: string;
  clientId: string;
  taskId: string;
  status: number | null;
  error: string | null;
}

const PUSH_TIMEOUT_MS = 5_000;
const KEPT_OUTCOMES = 500;

export class Pushes {
  readonly webhooks = new Map<string, Webhook>();
  /** What each task's last push said (status and ETA): a task whose record says the same again is not pushed. */
  private readonly lastPushed = new Map<string, string>();
  readonly outcomes: PushOutcome[] = [];

  constructor(private readonly logger: Logger) {}

  /** Whether `signature` (status and ETA) differs from what was last pushed for the task; remembers it. */
  changed(key: string, signature: string): boolean {
    if (this.lastPushed.get(key) === signature) return false;
    this.lastPushed.set(key, signature);
    return true;
  }

  /** POSTs a record to the client's webhook; the outcome is kept for the control API, never thrown. */
  async push(clientId: string, taskId: string, record: Record<string, unknown>, at: string): Promise<void> {
    const webhook = this.webhooks.get(clientId);
    if (!webhook) return;
    const body = JSON.stringify(record);
    const outcome: PushOutcome = { at, clientId, taskId, status: null, error: null };
    try {
      const res = await fetch(webhook.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [PUSH_SIGNATURE_HEADER]: signPush(webhook.secret, body) },
        body,
        signal: AbortSignal.timeout(PUSH_TIMEOUT_MS),
      });
      outcome.status = res.status;
      await res.arrayBuffer();
    } catch (error) {
      outcome.error = (error as Error).message;
      this.logger.warn('task push failed', { clientId, taskId, reason: outcome.error });
    }
    this.outcomes.push(outcome);
    if (this.outcomes.length > KEPT_OUTCOMES) this.outcomes.shift();
  }
}
