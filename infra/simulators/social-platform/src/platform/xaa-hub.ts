import type { Logger } from '@crm/logging';
import { nextEventId } from '../ids';
import { sendDelivery } from '../webhook-client';
import { serializeLikePlatform } from '../deliveries';
import { xaaDelivery, xaaEventsOf, type Direction, type XaaDelivery, type XaaEvent } from '../xaa-deliveries';
import type { XaaEventType } from '@crm/contracts';

/** A v2 webhook: where XAA deliveries of the subscriptions that name it (or of all, when it is the only one) go. */
export interface XaaWebhook {
  id: string;
  url: string;
  valid: boolean;
  createdAt: number;
}

export interface ActivitySubscription {
  id: string;
  eventType: XaaEventType;
  filter: { user_id?: string; keyword?: string; direction?: Direction };
  tag: string | null;
  webhookId: string | null;
  createdAt: number;
  updatedAt: number;
}

/** An event matched to a subscription, kept for the replay window whether or not its delivery got through. */
interface LoggedEvent {
  at: number;
  webhookId: string;
  delivery: XaaDelivery;
}

export interface ReplayJob {
  id: string;
  webhookId: string;
  from: number;
  to: number;
  createdAt: number;
  status: 'running' | 'complete';
  completedAt?: number;
  delivered: number;
}

/** Replay windows are given to the minute; the end minute is included whole. */
const MINUTE_MS = 60_000;

/** What the platform keeps of delivered events, to replay them. */
const LOG_RETENTION_MS = 24 * 3_600_000;

/**
 * The X Activity API side of the simulated platform: v2 webhooks, activity subscriptions, the
 * deliveries of every account activity the simulator produces (the same ones Account Activity
 * webhooks get, in the XAA shape), and replay jobs over the last 24 hours.
 */
export class XaaHub {
  readonly webhooks = new Map<string, XaaWebhook>();
  readonly subscriptions = new Map<string, ActivitySubscription>();
  readonly sent: { at: string; webhookId: string; eventType: string; eventUuid: string; status: number | null; error?: string }[] = [];
  private readonly log: LoggedEvent[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  /** Webhook ids whose deliveries fail as if the receiver were down (control API), to make an outage. */
  readonly unreachable = new Set<string>();
  replayJob: ReplayJob | null = null;

  constructor(
    private readonly consumerSecret: string,
    private readonly logger: Logger,
  ) {}

  /** Delivers the XAA form of an Account Activity delivery to the subscriptions it matches. */
  deliverActivity(activity: Record<string, unknown>): void {
    for (const event of xaaEventsOf(activity)) this.deliverEvent(event);
  }

  deliverEvent(event: XaaEvent): void {
    for (const subscription of this.matching(event)) {
      const webhook = this.webhookFor(subscription);
      if (!webhook) continue;
      const delivery = xaaDelivery(event, subscription);
      this.keep({ at: Date.now(), webhookId: webhook.id, delivery });
      this.track(this.send(webhook, delivery));
    }
  }

  /** Re-sends what was logged for a webhook between `from` and `to`, then announces the job's completion. */
  startReplay(job: ReplayJob): void {
    this.replayJob = job;
    const webhook = this.webhooks.get(job.webhookId);
    const work = (async () => {
      for (const entry of this.log.filter((e) => e.webhookId === job.webhookId && e.at >= job.from && e.at < job.to + MINUTE_MS)) {
        if (webhook) await this.send(webhook, entry.delivery);
        job.delivered += 1;
      }
      job.status = 'complete';
      job.completedAt = Date.now();
      const payload = { job_id: job.id, status: 'complete', created_at: new Date(job.createdAt).toISOString(), completed_at: new Date(job.completedAt).toISOString(), events_delivered: job.delivered };
      if (webhook) await this.send(webhook, { data: { event_uuid: `replay-${job.id}`, filter: {}, event_type: 'replay_job_status', tag: null, payload } });
    })();
    this.track(work);
  }

  /** Resolves once every delivery started so far has been answered (or failed). */
  async idle(): Promise<void> {
    while (this.inFlight.size) await Promise.allSettled([...this.inFlight]);
  }

  /** A revoke reaches subscriptions with no user (the app hears every revoke) or the revoking user's. */
  private matching(event: XaaEvent): ActivitySubscription[] {
    return [...this.subscriptions.values()].filter(
      (s) =>
        s.eventType === event.eventType &&
        (s.filter.user_id === event.userId || (event.eventType === 'oauth.revoke' && !s.filter.user_id && !s.filter.keyword)) &&
        (!s.filter.direction || !event.direction || s.filter.direction === event.direction),
    );
  }

  private webhookFor(subscription: ActivitySubscription): XaaWebhook | undefined {
    const webhook = subscription.webhookId ? this.webhooks.get(subscription.webhookId) : this.webhooks.size === 1 ? [...this.webhooks.values()][0] : undefined;
    return webhook?.valid ? webhook : undefined;
  }

  private keep(entry: LoggedEvent): void {
    this.log.push(entry);
    const horizon = Date.now() - LOG_RETENTION_MS;
    while (this.log.length && this.log[0]!.at < horizon) this.log.shift();
  }

  private track(work: Promise<void>): void {
    const tracked = work.finally(() => this.inFlight.delete(tracked));
    this.inFlight.add(tracked);
  }

  private async send(webhook: XaaWebhook, delivery: XaaDelivery): Promise<void> {
    const record: (typeof this.sent)[number] = { at: new Date().toISOString(), webhookId: webhook.id, eventType: delivery.data.event_type, eventUuid: delivery.data.event_uuid, status: null };
    try {
      if (this.unreachable.has(webhook.id)) throw new Error('webhook made unreachable by the control API');
      record.status = (await sendDelivery(webhook.url, this.consumerSecret, serializeLikePlatform(delivery))).status;
    } catch (error) {
      record.error = (error as Error).message;
    }
    this.sent.unshift(record);
    if (this.sent.length > 500) this.sent.length = 500;
    this.logger.info('xaa event delivered', { webhookId: webhook.id, eventType: record.eventType, status: record.status, reason: record.error });
  }

  newId(): string {
    return nextEventId();
  }
}
