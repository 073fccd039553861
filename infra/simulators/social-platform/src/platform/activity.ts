import { randomBytes } from 'node:crypto';
import type { Logger } from '@crm/logging';
import { directMessageReceived, directMessageSent, serializeLikePlatform } from '../deliveries';
import { sendDelivery } from '../webhook-client';
import { platformDate, type RelationKind } from '../activity-deliveries';
import { dmMediaUrl, postObject, userObject } from './objects';
import type { DirectMessage, PlatformState, Post, UserRecord } from './state';
import type { XaaHub, XaaWebhook } from './xaa-hub';

/**
 * What the account does through the API comes back to its webhook as Account Activity
 * deliveries, as on the platform. The builders here carry the platform's stored posts and
 * users; where a delivery holds no more than ids (deletes, revokes), the routes use those of
 * activity-deliveries.ts.
 */

/** Users inside follow/block/mute events carry a string `id` and no `id_str`. */
function eventUser(user: UserRecord): Record<string, unknown> {
  const { id_str: _idStr, ...rest } = userObject(user);
  return { ...rest, id: user.id };
}

export function postCreated(state: PlatformState, forUserId: string, post: Post): Record<string, unknown> {
  return { for_user_id: forUserId, tweet_create_events: [postObject(state, post)] };
}

export function postLiked(state: PlatformState, forUserId: string, liker: UserRecord, post: Post): Record<string, unknown> {
  const now = Date.now();
  return {
    for_user_id: forUserId,
    favorite_events: [{ id: randomBytes(16).toString('hex'), created_at: platformDate(now), timestamp_ms: now, favorited_status: postObject(state, post), user: userObject(liker) }],
  };
}

/** follow/unfollow, block/unblock, mute/unmute by `source` of `target`. */
export function userRelation(kind: RelationKind, type: string, forUserId: string, source: UserRecord, target: UserRecord): Record<string, unknown> {
  return { for_user_id: forUserId, [kind]: [{ type, created_timestamp: String(Date.now()), source: eventUser(source), target: eventUser(target) }] };
}

/** One delivery the platform side sent to a registered webhook. */
export interface PlatformDelivery {
  sentAt: string;
  /** The v2 webhook the Account Activity delivery went to. */
  webhookId: string;
  webhookUrl: string;
  kind: string;
  forUserId: string | null;
  eventIds: string[];
  webhookStatus: number | null;
  error?: string;
  delivery: Record<string, unknown>;
}

const eventId = (event: unknown): string | undefined => {
  const record = event as { id?: unknown; id_str?: unknown };
  const value = record.id_str ?? record.id;
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
};

/** Sends Account Activity deliveries to the v2 webhooks an account is subscribed on, after the API call answered. */
export class ActivityDispatcher {
  private readonly sent: PlatformDelivery[] = [];
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly state: PlatformState,
    private readonly consumerSecret: string,
    private readonly logger: Logger,
    private readonly xaa: XaaHub,
  ) {}

  /** Delivers `delivery` to every valid webhook where `userId` is subscribed, and its XAA form to the matching activity subscriptions. */
  deliver(userId: string, delivery: Record<string, unknown>): void {
    this.xaa.deliverActivity(delivery);
    for (const webhook of this.webhooksFor(userId)) {
      const work = this.send(webhook.id, webhook.url, delivery).finally(() => this.inFlight.delete(work));
      this.inFlight.add(work);
    }
  }

  /** A sent DM: the echo (with `source_app_id`) to the sender, the received DM to the recipient. */
  directMessage(dm: DirectMessage): void {
    const sender = this.state.user({ id: dm.senderId });
    const recipient = this.state.user({ id: dm.recipientId });
    const media = dm.mediaId ? { media: { id: dm.mediaId, type: 'photo' as const, url: dmMediaUrl(dm.id, dm.mediaId) } } : {};
    const common = { text: dm.text, eventId: dm.id, createdAt: dm.createdAt, ...media };
    this.deliver(sender.id, { ...directMessageSent({ ...common, account: sender, customer: recipient }) });
    this.deliver(recipient.id, { ...directMessageReceived({ ...common, account: recipient, customer: sender }) });
  }

  /** The valid v2 webhooks with an Account Activity subscription of `userId`: where its activity is delivered. */
  private webhooksFor(userId: string): XaaWebhook[] {
    const targets: XaaWebhook[] = [];
    for (const [webhookId, subscribed] of this.state.subscriptions) {
      const webhook = this.xaa.webhooks.get(webhookId);
      if (subscribed.has(userId) && webhook?.valid) targets.push(webhook);
    }
    return targets;
  }

  list(): PlatformDelivery[] {
    return [...this.sent];
  }

  /** Resolves once every delivery started so far has been answered (or failed). */
  async idle(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
    await this.xaa.idle();
  }

  private async send(webhookId: string, url: string, delivery: Record<string, unknown>): Promise<void> {
    const kind = Object.keys(delivery).find((key) => key.endsWith('_events') || key === 'user_event') ?? 'unknown';
    const events = delivery[kind];
    const entry: PlatformDelivery = {
      sentAt: new Date().toISOString(),
      webhookId,
      webhookUrl: url,
      kind,
      forUserId: delivery.for_user_id === undefined ? null : String(delivery.for_user_id),
      eventIds: Array.isArray(events) ? events.map(eventId).filter((id): id is string => id !== undefined) : [],
      webhookStatus: null,
      delivery,
    };
    try {
      const answer = await sendDelivery(url, this.consumerSecret, serializeLikePlatform(delivery));
      entry.webhookStatus = answer.status;
    } catch (error) {
      entry.error = (error as Error).message;
    }
    this.sent.unshift(entry);
    if (this.sent.length > 200) this.sent.length = 200;
    this.logger.info('activity delivered', { webhookId, url, kind: entry.kind, forUserId: entry.forUserId, webhookStatus: entry.webhookStatus, reason: entry.error });
  }
}
