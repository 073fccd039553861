import { Webhook } from 'standardwebhooks';

export type SendOutcome = { ok: true } | { ok: false; reason: string };

/**
 * POSTs one event to a CRM endpoint, signed the Standard Webhooks way (`webhook-id` = the
 * event's id, `webhook-timestamp`, `webhook-signature` = v1,HMAC-SHA256 of
 * `<id>.<timestamp>.<body>`). Any 2xx is delivered; anything else, or no answer in time, failed.
 */
export async function sendWebhook(target: { url: string; secret: string }, eventId: string, body: string, timeoutMs: number): Promise<SendOutcome> {
  const now = new Date();
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'crm-ticketing-webhooks/1',
    'webhook-id': eventId,
    'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
    'webhook-signature': new Webhook(target.secret).sign(eventId, now, body),
  };
  try {
    const response = await fetch(target.url, { method: 'POST', headers, body, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
    await response.arrayBuffer().catch(() => undefined);
    return response.ok ? { ok: true } : { ok: false, reason: `the endpoint answered ${response.status}` };
  } catch (error) {
    return { ok: false, reason: `no answer: ${(error as Error).message}` };
  }
}
