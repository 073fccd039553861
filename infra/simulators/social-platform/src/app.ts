import type { Express, RequestHandler } from 'express';
import { DELIVERY_KINDS } from '@crm/contracts';
import { createHttpApp, Refusal } from '@crm/http';
import type { Logger } from '@crm/logging';
import { sign } from '@crm/webhook-signature';
import type { SimulatorConfig } from './config';
import { contractCheckFromEnvironment } from './contract/contract-check';
import { deliveryApi, dmText, invalid, optionalEventId, optionalUrl, requireBody, signing, userRef } from './control-input';
import { activityDelivery } from './activity-requests';
import { DeliveryLog, type Signing } from './delivery-log';
import { directMessageReceived, serializeLikePlatform } from './deliveries';
import { platformRoutes } from './platform';
import { runCrcCheck, sendDelivery, WebhookUnreachable, type WebhookAnswer } from './webhook-client';
import { xaaDelivery, xaaEventsOf } from './xaa-deliveries';

export interface SimulatorAppOptions {
  config: SimulatorConfig;
  logger: Logger;
  /**
   * Checks each request and answer against the platform's OpenAPI document; by default the one
   * PLATFORM_OPENAPI_DOCUMENT names (none without it).
   */
  contractCheck?: RequestHandler | null;
}

function eventIdOf(event: unknown): string | undefined {
  if (typeof event !== 'object' || event === null) return undefined;
  const { id_str: idStr, id } = event as { id_str?: unknown; id?: unknown };
  const value = idStr ?? id;
  return value === undefined || value === null ? undefined : String(value);
}

/** A delivery's payload kind and event ids, read loosely: any object may be sent on purpose. */
function describe(delivery: unknown): { kind: string | null; forUserId: string | null; eventIds: string[] } {
  if (typeof delivery !== 'object' || delivery === null) return { kind: null, forUserId: null, eventIds: [] };
  const record = delivery as Record<string, unknown>;
  const kind = DELIVERY_KINDS.find((name) => name in record) ?? null;
  const events = kind ? record[kind] : undefined;
  const eventIds = Array.isArray(events) ? events.map(eventIdOf).filter((id): id is string => id !== undefined) : [];
  const forUserId = record.for_user_id === undefined ? null : String(record.for_user_id);
  return { kind, forUserId, eventIds };
}

/** Sends deliveries to a webhook as the platform does, signed (or not) as asked, and keeps a log of them. */
class Deliverer {
  readonly log = new DeliveryLog();

  constructor(
    private readonly secret: string,
    private readonly logger: Logger,
  ) {}

  /** Signs and POSTs the bytes, records the outcome, and answers 502 when the webhook did not answer. */
  async deliver(bytes: Buffer, delivery: unknown, url: string, mode: Signing): Promise<WebhookAnswer> {
    // A wrong signature is well-formed: the same bytes signed with another secret.
    const signature = mode === 'valid' ? undefined : mode === 'wrong' ? sign(`not-${this.secret}`, bytes) : null;
    const summary = describe(delivery);
    const entry = { sentAt: new Date().toISOString(), webhookUrl: url, ...summary, signing: mode, delivery };
    try {
      const answer = await sendDelivery(url, this.secret, bytes, { signature });
      this.log.add({ ...entry, webhookStatus: answer.status });
      this.logger.info('delivery sent', { url, ...summary, signing: mode, webhookStatus: answer.status });
      return answer;
    } catch (error) {
      if (!(error instanceof WebhookUnreachable)) throw error;
      this.log.add({ ...entry, webhookStatus: null, error: error.message });
      this.logger.warn('delivery not answered', { url, ...summary, reason: error.message });
      throw new Refusal('upstream_failed', 'webhook_unreachable', `${error.message} (is webhook-ingest running?)`);
    }
  }

  /**
   * Sends an Account Activity delivery as it is, or (api "xaa") as the X Activity API delivers the
   * same activity: one delivery per event, filtered on its account. Answers with the last answer.
   */
  async deliverAs(api: 'aaa' | 'xaa', delivery: Record<string, unknown>, url: string, mode: Signing, tag?: string): Promise<WebhookAnswer> {
    if (api === 'aaa') return this.deliver(serializeLikePlatform(delivery), delivery, url, mode);
    let last: WebhookAnswer = { status: 204, body: null };
    for (const event of xaaEventsOf(delivery)) {
      const shaped = xaaDelivery(event, { filter: { user_id: event.userId }, tag: tag ?? null });
      last = await this.deliver(serializeLikePlatform(shaped), shaped, url, mode);
    }
    return last;
  }
}

/** The bytes and the delivery of a `/control/deliveries` body: exact bytes (`raw`) or a JSON delivery serialized as the platform does. */
function deliveryBytes(body: Record<string, unknown>): { bytes: Buffer; delivery: unknown } {
  // Exact bytes, for tests of bodies that are not JSON or not a known shape.
  if (typeof body.raw === 'string') return { bytes: Buffer.from(body.raw, 'utf8'), delivery: body.raw };
  if (typeof body.delivery === 'object' && body.delivery !== null && !Array.isArray(body.delivery)) return { bytes: serializeLikePlatform(body.delivery), delivery: body.delivery };
  throw invalid('delivery', 'must be a JSON object (or give `raw` as a string to send exact bytes)');
}

/** The control API's deliveries: a CRC check, a DM, any account activity, a delivery as given, the log. */
function controlDeliveryRoutes(app: Express, config: SimulatorConfig, logger: Logger, deliverer: Deliverer): void {
  app.post('/control/crc', async (req, res) => {
    const body = req.body === undefined ? {} : requireBody(req.body);
    const url = optionalUrl(body, 'url') ?? config.WEBHOOK_URL;
    const result = await runCrcCheck(url, config.SOCIAL_CONSUMER_SECRET);
    logger.info('crc check', { url, ...result });
    res.json({ url, ...result });
  });
  app.post('/control/direct-messages', async (req, res) => {
    const body = requireBody(req.body);
    const customer = userRef(body, 'from');
    const account = userRef(body, 'to');
    const text = dmText(body);
    const eventId = optionalEventId(body);
    const url = optionalUrl(body, 'webhookUrl') ?? config.WEBHOOK_URL;
    const mode = signing(body);
    const delivery = directMessageReceived({ account, customer, text, ...(eventId ? { eventId } : {}) });
    const answer = await deliverer.deliverAs(deliveryApi(body), delivery as unknown as Record<string, unknown>, url, mode);
    res.json({ webhookStatus: answer.status, webhookBody: answer.body, eventId: delivery.direct_message_events[0]!.id, forUserId: delivery.for_user_id, delivery });
  });
  // Any kind of account activity, built like the platform builds it (see activity-requests.ts).
  app.post('/control/activities', async (req, res) => {
    const body = requireBody(req.body);
    const url = optionalUrl(body, 'webhookUrl') ?? config.WEBHOOK_URL;
    const mode = signing(body);
    const { kind, delivery } = activityDelivery(body);
    const answer = await deliverer.deliverAs(deliveryApi(body), delivery as Record<string, unknown>, url, mode);
    const summary = describe(delivery);
    res.json({ webhookStatus: answer.status, webhookBody: answer.body, activity: kind, ...summary, eventId: summary.eventIds[0] ?? null, delivery });
  });
  app.post('/control/deliveries', async (req, res) => {
    const body = requireBody(req.body);
    const url = optionalUrl(body, 'webhookUrl') ?? config.WEBHOOK_URL;
    const mode = signing(body);
    const { bytes, delivery } = deliveryBytes(body);
    const answer = await deliverer.deliver(bytes, delivery, url, mode);
    res.json({ webhookStatus: answer.status, webhookBody: answer.body, ...describe(delivery) });
  });
  app.get('/control/deliveries', (_req, res) => {
    res.json({ items: deliverer.log.list() });
  });
}

/** The simulated platform's control API: tests and people tell it what to deliver, and where. */
export function createSimulatorApp({ config, logger, contractCheck = contractCheckFromEnvironment() }: SimulatorAppOptions): Express {
  const deliverer = new Deliverer(config.SOCIAL_CONSUMER_SECRET, logger);
  return createHttpApp({
    cleanText: false,
    logger,
    readiness: {},
    routes: (app) => {
      if (contractCheck) app.use(contractCheck);
      app.use(platformRoutes({ config, logger }));
      controlDeliveryRoutes(app, config, logger, deliverer);
    },
  });
}
