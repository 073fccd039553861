import type { Router } from 'express';
import { Refusal } from '@crm/http';
import { nextEventId } from '../ids';
import { encryptedDmEvent } from '../xaa-deliveries';
import type { PlatformContext } from './context';
import { userObject } from './objects';

type Body = Record<string, unknown>;

const invalid = (field: string, problem: string) => new Refusal('invalid', 'invalid_request', `\`${field}\` ${problem}`);

function body(value: unknown): Body {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Refusal('invalid', 'invalid_request', 'send a JSON object');
  return value as Body;
}

/**
 * Knobs of the X Activity API side: what it delivered, an outage of a webhook (its deliveries
 * fail, as when the receiver is down, and are kept for replay), a replay job's state, and an
 * encrypted DM (XChat), whose text the platform never has.
 */
export function xaaControlRoutes(router: Router, ctx: PlatformContext): void {
  const { xaa, state } = ctx;
  const base = '/control/platform/xaa';
  router.get(`${base}/deliveries`, (_req, res) => {
    res.json({ items: xaa.sent });
  });
  router.post(`${base}/outage`, (req, res) => {
    const b = body(req.body);
    const webhookId = String(b.webhookId ?? '');
    if (!xaa.webhooks.has(webhookId)) throw invalid('webhookId', 'must name a registered v2 webhook');
    if (typeof b.down !== 'boolean') throw invalid('down', 'must be true or false');
    if (b.down) xaa.unreachable.add(webhookId);
    else xaa.unreachable.delete(webhookId);
    res.json({ webhookId, down: b.down });
  });
  router.get(`${base}/replay`, (_req, res) => {
    res.json({ job: xaa.replayJob });
  });
  router.post(`${base}/encrypted-dm`, async (req, res) => {
    const b = body(req.body);
    if (typeof b.from !== 'string' || typeof b.to !== 'string') throw invalid('from', 'and `to` must name users ("@screen_name" or an id)');
    const sender = userObject(state.user(b.from));
    const recipient = userObject(state.user(b.to));
    const eventId = nextEventId();
    for (const account of [String(recipient.id_str), String(sender.id_str)]) xaa.deliverEvent(encryptedDmEvent({ account, sender, recipient, eventId }));
    await xaa.idle();
    res.json({ eventId });
  });
}
