import type { Logger } from '@crm/logging';
import { PeriodicJob } from '@crm/periodic';
import type { SecretBox } from '@crm/secrets';
import { WebhookSender } from '../adapters/webhook-sender';
import type { TicketingStore } from '../adapters/db/store';
import type { DueDelivery, EndpointRow, FailureRow } from '../adapters/db/webhooks';
import { refusedLiteralAddress, type AddressRange } from '../domain/webhook-addresses';
import { newSigningSecret, readEndpoint, retryDelay } from '../domain/webhooks';
import { conflict, invalid, notFound } from './errors';

/** Sealed secrets are bound to their endpoint's purpose, so one cannot be moved to another table. */
const SEAL_CONTEXT = 'ticketing:webhook-endpoint';

const endpointNotFound = (id: string) => notFound('webhook_endpoint_not_found', `no webhook endpoint with id '${id.slice(0, 100)}'`);

export interface WebhookEndpointsDeps {
  store: TicketingStore;
  logger: Logger;
  /** Seals signing secrets; null when WEBHOOK_SECRETS_KEY is not set (no endpoint can be registered). */
  box: SecretBox | null;
  isId: (id: string) => boolean;
  kick: () => void;
  /** Ranges allowed besides public addresses (WEBHOOK_ALLOWED_CIDRS). */
  allowedRanges: readonly AddressRange[];
}

/** The CRM's webhook endpoints: registered with a secret shown once, listed, removed, their failures and replays. */
export class WebhookEndpoints {
  constructor(private readonly deps: WebhookEndpointsDeps) {}

  async register(body: unknown): Promise<{ endpoint: EndpointRow; secret: string }> {
    const read = readEndpoint(body);
    if ('problems' in read) throw invalid('invalid_webhook_endpoint', read.problems);
    const refused = refusedLiteralAddress(read.endpoint.url, this.deps.allowedRanges);
    if (refused) {
      throw invalid('invalid_webhook_endpoint', [
        `/url points to a private or local address (${refused}): webhooks go to public addresses only; an operator can allow the range with WEBHOOK_ALLOWED_CIDRS`,
      ]);
    }
    if (!this.deps.box) throw conflict('webhooks_not_configured', 'WEBHOOK_SECRETS_KEY is not set: this service cannot keep signing secrets');
    const secret = newSigningSecret();
    const endpoint = await this.deps.store.read.webhooks.insert(read.endpoint, this.deps.box.seal(secret, SEAL_CONTEXT));
    this.deps.logger.info('webhook endpoint registered', { endpointId: endpoint.id, url: endpoint.url });
    return { endpoint, secret };
  }

  list(): Promise<EndpointRow[]> {
    return this.deps.store.read.webhooks.list();
  }

  async get(id: string): Promise<EndpointRow> {
    const endpoint = this.deps.isId(id) ? await this.deps.store.read.webhooks.find(id) : null;
    if (!endpoint) throw endpointNotFound(id);
    return endpoint;
  }

  async remove(id: string): Promise<void> {
    if (!this.deps.isId(id) || !(await this.deps.store.read.webhooks.remove(id))) throw endpointNotFound(id);
  }

  async failures(id: string): Promise<FailureRow[]> {
    await this.get(id);
    return this.deps.store.read.webhooks.failures(id);
  }

  /** Sends one event to the endpoint again (a dead one, or one it wants again). */
  async replay(id: string, body: unknown): Promise<void> {
    await this.get(id);
    const eventId = typeof body === 'object' && body !== null ? (body as { eventId?: unknown }).eventId : undefined;
    if (typeof eventId !== 'string' || eventId.length === 0 || eventId.length > 200) throw invalid('invalid_replay', ['/eventId must be the id of an event sent to this endpoint']);
    if (!(await this.deps.store.read.webhooks.replay(id, eventId))) throw notFound('event_not_found', `endpoint ${id} never had event '${eventId}'`);
    this.deps.kick();
  }

  /** The plain secret of a due delivery's endpoint. */
  secretOf(delivery: DueDelivery): string {
    if (!this.deps.box) throw new Error('WEBHOOK_SECRETS_KEY is not set');
    return this.deps.box.open(delivery.secret_sealed, SEAL_CONTEXT);
  }
}

export interface WebhookDispatcherDeps {
  store: TicketingStore;
  logger: Logger;
  endpoints: Pick<WebhookEndpoints, 'secretOf'>;
  retryDelaysMs: readonly number[];
  timeoutMs: number;
  /** Ranges allowed besides public addresses (WEBHOOK_ALLOWED_CIDRS), checked on the address each delivery connects to. */
  allowedRanges: readonly AddressRange[];
}

const BATCH = 20;

/**
 * Works the table of deliveries: due ones are leased (SKIP LOCKED: replicas share the work),
 * sent, then marked delivered, scheduled again on the growing schedule, or dead. Runs on a
 * timer and whenever a change is committed; a run asked for during a run goes round once more.
 */
export class WebhookDispatcher {
  private readonly runs: PeriodicJob;
  private readonly sender: WebhookSender;

  constructor(private readonly deps: WebhookDispatcherDeps) {
    this.runs = new PeriodicJob('webhook deliveries', () => this.drain(), deps.logger);
    this.sender = new WebhookSender({ allowed: deps.allowedRanges, timeoutMs: deps.timeoutMs });
  }

  start(intervalMs: number): void {
    this.runs.start(intervalMs);
  }

  kick(): Promise<void> {
    return this.runs.runNow();
  }

  async stop(): Promise<void> {
    await this.runs.stop();
    await this.sender.close();
  }

  private async drain(): Promise<void> {
    const leaseMs = this.deps.timeoutMs + 5_000;
    for (;;) {
      const due = await this.deps.store.transaction((tx) => tx.webhooks.leaseDue(BATCH, leaseMs));
      await Promise.all(due.map((delivery) => this.attempt(delivery)));
      if (due.length < BATCH || this.runs.stopped) return;
    }
  }

  private async attempt(delivery: DueDelivery): Promise<void> {
    const outcome = await this.sender.send({ url: delivery.url, secret: this.deps.endpoints.secretOf(delivery) }, delivery.event_id, JSON.stringify(delivery.body));
    if (outcome.ok) {
      await this.deps.store.read.webhooks.markDelivered(delivery.id);
      return;
    }
    const retryInMs = retryDelay(delivery.attempts, this.deps.retryDelaysMs);
    await this.deps.store.read.webhooks.markFailed(delivery.id, outcome.reason, retryInMs);
    this.deps.logger.warn(retryInMs === null ? 'webhook delivery dead after its last attempt' : 'webhook delivery failed; it is tried again', {
      deliveryId: delivery.id,
      eventId: delivery.event_id,
      attempt: delivery.attempts,
      reason: outcome.reason,
      // what the API does not show: the refused address, the DNS or socket error
      detail: outcome.detail,
    });
  }
}
