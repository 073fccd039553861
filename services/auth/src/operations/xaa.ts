import type { Logger } from '@crm/logging';
import type { AccountStore } from '../adapters/accounts';
import type { PlatformClient } from '../adapters/platform/client';
import type { ReplayRecord, XaaStore } from '../adapters/xaa-store';
import { AccountNotConnected } from '../domain/errors';
import { ConfigurationError, PlatformRejected } from '../domain/platform-errors';
import { webhookUrlProblem } from '../domain/webhook-urls';
import { clampToRetention, createdSubscription, isOutage, privateEventScope, replayTime, replayWindow, subscriptionFilter, type ReplayRules } from '../domain/xaa';
import type { Signer } from '../adapters/platform/client';

export interface XaaWebhook {
  id: string;
  url: string;
  valid: boolean;
  createdAt: string | null;
}

interface PlatformSubscription {
  subscription_id: string;
  event_type: string;
  filter: { user_id?: string; direction?: string };
  tag?: string;
  webhook_id?: string;
}

export interface XaaOptions {
  /** `<PUBLIC_WEBHOOK_URL>/xaa`, where webhook-ingest takes XAA deliveries. */
  webhookUrl: string;
  /** Register an http URL or one with a port (the local stack); the platform's rule is HTTPS without a port. */
  allowLocalWebhookUrl: boolean;
  eventTypes: readonly string[];
}

const toWebhook = (raw: { id?: unknown; url?: unknown; valid?: unknown; created_at?: unknown }): XaaWebhook => ({
  id: String(raw.id),
  url: String(raw.url),
  valid: raw.valid === true,
  createdAt: typeof raw.created_at === 'string' ? raw.created_at : null,
});

const sameFilter = (a: PlatformSubscription['filter'], b: PlatformSubscription['filter']) => a.user_id === b.user_id && (a.direction ?? null) === (b.direction ?? null);

/**
 * The X Activity API set-up: the environment's v2 webhook (the app's bearer token), and each
 * account's activity subscriptions (one per event type, tagged with the account id): a private
 * event's with the account's OAuth 2.0 token, which must hold the event's scope, a public one's
 * with the app's bearer token. What was made is kept in auth's database.
 */
export class XaaAdmin {
  constructor(
    private readonly deps: { platform: PlatformClient; accounts: AccountStore; store: XaaStore; logger: Logger },
    private readonly options: XaaOptions,
  ) {}

  /** Registers the XAA webhook; the platform runs the CRC against webhook-ingest first. */
  async registerWebhook(): Promise<XaaWebhook> {
    const problem = webhookUrlProblem(this.options.webhookUrl, this.options.allowLocalWebhookUrl);
    if (problem) throw new ConfigurationError(`the XAA webhook URL cannot be registered: ${problem} (WEBHOOK_URL_LOCAL_ALLOWED=true allows it against a local platform)`);
    const answer = await this.deps.platform.call({ method: 'POST', path: '/2/webhooks', json: { url: this.options.webhookUrl } }, { kind: 'app' });
    const webhook = toWebhook((answer.data as { data?: object } | null)?.data ?? {});
    await this.deps.store.saveWebhook({ webhookId: webhook.id, url: webhook.url });
    this.deps.logger.info('xaa webhook registered', { webhookId: webhook.id, url: webhook.url });
    return webhook;
  }

  async listWebhooks(): Promise<XaaWebhook[]> {
    const answer = await this.deps.platform.call({ method: 'GET', path: '/2/webhooks' }, { kind: 'app' });
    const data = (answer.data as { data?: unknown } | null)?.data;
    return Array.isArray(data) ? data.map(toWebhook) : [];
  }

  /** Deletes the webhook; one the platform no longer has counts as deleted. */
  async deleteWebhook(webhookId: string): Promise<void> {
    try {
      await this.deps.platform.call({ method: 'DELETE', path: `/2/webhooks/${encodeURIComponent(webhookId)}` }, { kind: 'app' });
    } catch (error) {
      if (!(error instanceof PlatformRejected && error.status === 404)) throw error;
    }
    await this.deps.store.deleteWebhook(webhookId);
  }

  /** Every subscription of the app, page after page (`meta.next_token` to `pagination_token`). */
  private async platformSubscriptions(): Promise<PlatformSubscription[]> {
    const all: PlatformSubscription[] = [];
    let token: string | undefined;
    do {
      const query: Record<string, string> = { max_results: '1000', ...(token ? { pagination_token: token } : {}) };
      const answer = await this.deps.platform.call({ method: 'GET', path: '/2/activity/subscriptions', query }, { kind: 'app' });
      const body = answer.data as { data?: unknown; meta?: { next_token?: unknown } } | null;
      if (Array.isArray(body?.data)) all.push(...(body.data as PlatformSubscription[]));
      token = typeof body?.meta?.next_token === 'string' && body.meta.next_token ? body.meta.next_token : undefined;
    } while (token);
    return all;
  }

  /**
   * Subscribes a connected account to each event type; one the platform has already (409)
   * counts as made. One the platform refuses (an event type the app's plan lacks, say) is
   * logged and reported, and the others are still made.
   */
  async subscribe(accountId: string): Promise<{ accountId: string; created: string[]; existing: string[]; refused: { eventType: string; reason: string }[] }> {
    const found = await this.deps.accounts.credentials(accountId);
    if (!found) throw new AccountNotConnected(accountId);
    const scopes = found.protocol === 'oauth2' ? ((await this.deps.accounts.find(accountId))?.scopes ?? []) : null;
    /** The token a subscription is made with, or why there is none. */
    const signerFor = (eventType: string): Signer | string => {
      const scope = privateEventScope(eventType);
      if (!scope) return { kind: 'app' };
      if (found.protocol !== 'oauth2') return `${eventType} is a private event: it needs the account connected with OAuth 2.0 (it is connected with OAuth 1.0a); connect it again with OAuth 2.0`;
      if (!scopes!.includes(scope)) return `${eventType} needs the ${scope} scope, which the account did not grant; connect it again to grant it`;
      return { kind: 'oauth2-user', accessToken: found.accessToken };
    };
    const webhook = await this.deps.store.webhook();
    const created: string[] = [];
    const existing: string[] = [];
    const refused: { eventType: string; reason: string }[] = [];
    for (const eventType of this.options.eventTypes) {
      const filter = subscriptionFilter(accountId, eventType);
      const body = { event_type: eventType, filter, tag: accountId, ...(webhook ? { webhook_id: webhook.webhookId } : {}) };
      const signer = signerFor(eventType);
      if (typeof signer === 'string') {
        refused.push({ eventType, reason: signer });
        this.deps.logger.warn('xaa subscription refused', { accountId, eventType, reason: signer });
        continue;
      }
      let subscriptionId: string;
      try {
        const answer = await this.deps.platform.call({ method: 'POST', path: '/2/activity/subscriptions', json: body }, signer);
        const made = createdSubscription(answer.data);
        if (typeof made?.subscription_id !== 'string') throw new PlatformRejected(answer.status, null, 'the answer names no subscription_id');
        subscriptionId = made.subscription_id;
        created.push(eventType);
      } catch (error) {
        if (!(error instanceof PlatformRejected)) throw error;
        const found =
          error.status === 409
            ? (await this.platformSubscriptions()).find((s) => s.event_type === eventType && sameFilter(s.filter, filter) && (s.webhook_id ?? null) === (webhook?.webhookId ?? null))
            : undefined;
        if (!found) {
          refused.push({ eventType, reason: error.message });
          this.deps.logger.warn('xaa subscription refused', { accountId, eventType, status: error.status, reason: error.platformMessage });
          continue;
        }
        subscriptionId = found.subscription_id;
        existing.push(eventType);
      }
      await this.deps.store.saveSubscription({ subscriptionId, accountId, eventType });
    }
    this.deps.logger.info('xaa subscriptions made', { accountId, created: created.length, existing: existing.length, refused: refused.length });
    return { accountId, created, existing, refused };
  }

  /** Removes every subscription of the account, whether auth or another made it; answers how many. */
  async unsubscribe(accountId: string): Promise<{ accountId: string; removed: number }> {
    const onPlatform = (await this.platformSubscriptions()).filter((s) => s.filter.user_id === accountId || s.tag === accountId).map((s) => s.subscription_id);
    const recorded = (await this.deps.store.subscriptionsOf(accountId)).map((s) => s.subscriptionId);
    let removed = 0;
    for (const id of new Set([...onPlatform, ...recorded])) {
      try {
        await this.deps.platform.call({ method: 'DELETE', path: `/2/activity/subscriptions/${encodeURIComponent(id)}` }, { kind: 'app' });
        removed += 1;
      } catch (error) {
        if (!(error instanceof PlatformRejected && error.status === 404)) throw error;
      }
      await this.deps.store.deleteSubscription(id);
    }
    return { accountId, removed };
  }

  /** When an account is removed: its subscriptions, if auth made any (no platform call otherwise). */
  async unsubscribeRemoved(accountId: string): Promise<void> {
    if ((await this.deps.store.subscriptionsOf(accountId)).length > 0) await this.unsubscribe(accountId);
  }

  async subscriptionsOf(accountId: string) {
    return this.deps.store.subscriptionsOf(accountId);
  }
}

export interface ReplayOptions {
  rules: ReplayRules;
  /** A heartbeat older than this at start-up means deliveries may have been missed. */
  gapMs: number;
  /** How far before the last heartbeat the replay starts: deliveries in flight then may have been lost too. */
  marginMs: number;
  /** How long to wait before asking again when the platform runs another replay job. */
  busyRetryMs: number;
}

export interface ReplayRequestOutcome {
  /** The queued window's id, when this process queued or asked for it. */
  replay?: string;
  status: 'requested' | 'waiting' | 'failed' | 'duplicate';
  jobId?: string;
  from?: string;
  to?: string;
  notBefore?: string;
  reason?: string;
}

/**
 * Replays after an outage: auth's heartbeat, the gap found in it at start-up, and the replay
 * windows queued until the platform allows them (both ends old enough, one job at a time).
 * Completion arrives as a `replay_job_status` delivery; auth records the request, not the completion.
 */
export class XaaReplays {
  constructor(
    private readonly deps: { platform: PlatformClient; store: XaaStore; logger: Logger; now?: () => number },
    private readonly options: ReplayOptions,
  ) {}

  private now(): number {
    return this.deps.now?.() ?? Date.now();
  }

  /** At start-up: beats, and queues a replay of the gap since the previous beat when it is an outage. */
  async checkGapAtStartup(): Promise<ReplayRequestOutcome | null> {
    const startedAt = this.now();
    const previous = await this.deps.store.beat();
    if (!isOutage(previous?.getTime() ?? null, startedAt, this.options.gapMs)) return null;
    const missedFrom = previous!.getTime() - this.options.marginMs;
    this.deps.logger.warn('xaa deliveries may have been missed while auth was down', { lastHeartbeat: previous!.toISOString(), startedAt: new Date(startedAt).toISOString() });
    return this.queue(missedFrom, startedAt, 'outage found at start-up');
  }

  /**
   * An account went silent (ticketing's silence alarm): for an account with XAA subscriptions,
   * queues a replay from a margin before its last delivery to now; null for another account.
   * The same silence heard again queues nothing (a window is queued once per start).
   */
  async replaySilence(accountId: string, silentSince: number): Promise<ReplayRequestOutcome | null> {
    if ((await this.deps.store.subscriptionsOf(accountId)).length === 0) return null;
    return this.queue(silentSince - this.options.marginMs, this.now(), `account ${accountId} silent since ${new Date(silentSince).toISOString()}`);
  }

  /** Queues a replay of [from, to] (an operator's request, an outage, a silent account) and asks for it now when allowed. */
  async queue(from: number, to: number, reason: string): Promise<ReplayRequestOutcome> {
    const window = replayWindow(from, to, this.options.rules);
    const added = await this.deps.store.addReplay({ from: new Date(window.from), to: new Date(window.to), notBefore: new Date(window.notBefore), reason });
    const asked = { from: replayTime(window.from), to: replayTime(window.to) };
    if (!added) return { ...asked, status: 'duplicate', reason: 'a window with this start is queued already' };
    const mine = (await this.runDue()).find((o) => o.from === asked.from);
    return mine ?? { ...asked, status: 'waiting', notBefore: new Date(window.notBefore).toISOString() };
  }

  /** The periodic round: beats, then asks for each due window. */
  async tick(): Promise<ReplayRequestOutcome[]> {
    await this.deps.store.beat();
    return this.runDue();
  }

  /** Asks the platform for every due window, earliest first, until one must wait. */
  async runDue(): Promise<ReplayRequestOutcome[]> {
    const outcomes: ReplayRequestOutcome[] = [];
    for (let claimed = await this.deps.store.claimDueReplay(); claimed; claimed = await this.deps.store.claimDueReplay()) {
      const outcome = await this.request(claimed);
      outcomes.push(outcome);
      if (outcome.status === 'waiting') break;
    }
    return outcomes;
  }

  private async request(replay: ReplayRecord): Promise<ReplayRequestOutcome> {
    const base = { replay: replay.id, from: replayTime(replay.from.getTime()), to: replayTime(replay.to.getTime()) };
    const webhook = await this.deps.store.webhook();
    const window = clampToRetention({ from: replay.from.getTime(), to: replay.to.getTime() }, this.now(), this.options.rules);
    if (!webhook || !window) {
      const reason = webhook ? 'the window is older than the platform keeps' : 'no XAA webhook is registered';
      await this.deps.store.replayFailed(replay.id, reason);
      return { ...base, status: 'failed', reason };
    }
    try {
      const json = { webhook_id: webhook.webhookId, from_date: replayTime(window.from), to_date: replayTime(window.to) };
      const answer = await this.deps.platform.call({ method: 'POST', path: '/2/webhooks/replay', json }, { kind: 'app' });
      const jobId = String((answer.data as { data?: { job_id?: unknown } } | null)?.data?.job_id);
      await this.deps.store.replayRequested(replay.id, jobId);
      this.deps.logger.info('xaa replay requested', { jobId, from: json.from_date, to: json.to_date });
      return { ...base, status: 'requested', jobId };
    } catch (error) {
      const busy = error instanceof PlatformRejected && error.status === 409;
      if (busy || !(error instanceof PlatformRejected)) {
        const notBefore = new Date(this.now() + this.options.busyRetryMs);
        await this.deps.store.replayWaits(replay.id, notBefore, (error as Error).message);
        return { ...base, status: 'waiting', notBefore: notBefore.toISOString(), reason: (error as Error).message };
      }
      await this.deps.store.replayFailed(replay.id, error.message);
      this.deps.logger.warn('xaa replay refused', { from: base.from, to: base.to, reason: error.platformMessage });
      return { ...base, status: 'failed', reason: error.message };
    }
  }
}
