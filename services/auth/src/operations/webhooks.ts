import type { WebhookInvalidPayload } from '@crm/contracts';
import type { Logger } from '@crm/logging';
import type { AccountStore } from '../adapters/accounts';
import type { AuthEvents } from '../adapters/events';
import type { PlatformClient, Signer } from '../adapters/platform/client';
import type { WebhookRegistrations } from '../adapters/webhook-registrations';
import { AccountNotConnected, NeedsOAuth1, NoWebhookRegistered, OwnerUnknown } from '../domain/errors';
import { ConfigurationError, PlatformRejected } from '../domain/platform-errors';
import { webhookUrlProblem } from '../domain/webhook-urls';

export interface Webhook {
  id: string;
  url: string;
  valid: boolean;
  createdAt: string | null;
}

/** What one webhook check found: how many webhooks it looked at, and those it reported invalid. */
export interface WebhookCheck {
  checked: number;
  invalid: WebhookInvalidPayload[];
}

export interface WebhookAdminOptions {
  envName: string;
  publicWebhookUrl: string;
  /** The connected account of the app's owner, when configured. */
  ownerAccountId?: string;
  /** Register an http URL or one with a port (the local stack); the platform's rule is HTTPS without a port. */
  allowLocalWebhookUrl: boolean;
}

/** A v2 webhook config: `{id, url, valid, created_at}`. */
interface PlatformWebhook {
  id?: unknown;
  url?: unknown;
  valid?: unknown;
  created_at?: unknown;
}

const toWebhook = (raw: PlatformWebhook): Webhook => ({
  id: String(raw.id),
  url: String(raw.url),
  valid: raw.valid === true,
  createdAt: typeof raw.created_at === 'string' ? raw.created_at : null,
});

/** The `data` of a v2 answer (every Account Activity and webhook answer is nested in it). */
const dataOf = <T>(answer: { data: unknown }): T | undefined => (answer.data as { data?: T } | null)?.data;

const WEBHOOKS = '/2/webhooks';
/** An Account Activity subscription route of webhook `webhookId` (`/2/account_activity/webhooks/:webhook_id/subscriptions/...`). */
const subscriptions = (webhookId: string, rest: string) => `/2/account_activity/webhooks/${encodeURIComponent(webhookId)}/subscriptions/${rest}`;

/**
 * The Account Activity API on its v2 routes: the app's webhook (`/2/webhooks`, registered,
 * re-checked and deleted in the app owner's user context, listed with the app's bearer token)
 * and the accounts subscribed to all their activity on it (each with its own user context;
 * listed, counted and removed with the bearer token). `envName` names the registration in
 * auth's database (the platform has no environments on v2).
 */
export class WebhookAdmin {
  constructor(
    private readonly deps: { platform: PlatformClient; accounts: AccountStore; registrations: WebhookRegistrations; logger: Logger },
    private readonly options: WebhookAdminOptions,
  ) {}

  get envName(): string {
    return this.options.envName;
  }

  /** The account's OAuth 1.0a user context (an OAuth 2.0 account subscribes through the X Activity API, whose events need its scopes). */
  private async userOf(accountId: string): Promise<Signer> {
    const found = await this.deps.accounts.credentials(accountId);
    if (!found) throw new AccountNotConnected(accountId);
    if (found.protocol !== 'oauth1') throw new NeedsOAuth1(accountId);
    return { kind: 'user', token: found.token };
  }

  private async ownerOf(given: string | undefined, webhookId?: string): Promise<string> {
    if (given) return given;
    const registration = await this.deps.registrations.find(this.options.envName);
    if (registration && (!webhookId || registration.webhookId === webhookId)) return registration.ownerAccountId;
    if (this.options.ownerAccountId) return this.options.ownerAccountId;
    throw new OwnerUnknown("name the app owner's connected account (ownerAccountId, or SOCIAL_APP_OWNER_ACCOUNT_ID)");
  }

  /** Registers PUBLIC_WEBHOOK_URL; the platform runs the CRC against it first. */
  async register(ownerAccountId?: string): Promise<Webhook> {
    const owner = ownerAccountId ?? this.options.ownerAccountId;
    if (!owner) throw new OwnerUnknown("name the app owner's connected account (ownerAccountId, or SOCIAL_APP_OWNER_ACCOUNT_ID)");
    const problem = webhookUrlProblem(this.options.publicWebhookUrl, this.options.allowLocalWebhookUrl);
    if (problem) throw new ConfigurationError(`PUBLIC_WEBHOOK_URL cannot be registered: ${problem} (WEBHOOK_URL_LOCAL_ALLOWED=true allows it against a local platform)`);
    const answer = await this.deps.platform.call({ method: 'POST', path: WEBHOOKS, json: { url: this.options.publicWebhookUrl } }, await this.userOf(owner));
    const webhook = toWebhook(dataOf<PlatformWebhook>(answer) ?? {});
    await this.deps.registrations.save({ envName: this.options.envName, webhookId: webhook.id, url: webhook.url, ownerAccountId: owner });
    this.deps.logger.info('webhook registered', { envName: this.options.envName, webhookId: webhook.id, url: webhook.url });
    return webhook;
  }

  async list(): Promise<Webhook[]> {
    // Every v2 webhook of the app: the X Activity API's too (the platform counts them together).
    const webhooks = dataOf<PlatformWebhook[]>(await this.deps.platform.call({ method: 'GET', path: WEBHOOKS }, { kind: 'app' }));
    return Array.isArray(webhooks) ? webhooks.map(toWebhook) : [];
  }

  /** Asks the platform to run the CRC again; a failed CRC is an answer here, not an error. */
  async recheck(webhookId: string, ownerAccountId?: string): Promise<{ valid: boolean; reason?: string }> {
    const owner = await this.ownerOf(ownerAccountId, webhookId);
    try {
      await this.deps.platform.call({ method: 'PUT', path: `${WEBHOOKS}/${encodeURIComponent(webhookId)}` }, await this.userOf(owner));
      return { valid: true };
    } catch (error) {
      if (error instanceof PlatformRejected && error.status === 400) return { valid: false, reason: error.platformMessage };
      throw error;
    }
  }

  async remove(webhookId: string, ownerAccountId?: string): Promise<void> {
    const owner = await this.ownerOf(ownerAccountId, webhookId);
    await this.deps.platform.call({ method: 'DELETE', path: `${WEBHOOKS}/${encodeURIComponent(webhookId)}` }, await this.userOf(owner));
    await this.deps.registrations.delete(this.options.envName, webhookId);
  }

  /** The webhook auth registered: subscriptions hang off it. */
  private async webhookId(): Promise<string | null> {
    return (await this.deps.registrations.find(this.options.envName))?.webhookId ?? null;
  }

  private async registeredWebhookId(): Promise<string> {
    const id = await this.webhookId();
    if (id === null) throw new NoWebhookRegistered('no webhook is registered: register it first (POST /v1/webhooks, or `cli webhook register`)');
    return id;
  }

  /** Subscribes the account (its own user context); already subscribed (409) counts as done. */
  async subscribe(accountId: string): Promise<{ alreadySubscribed: boolean }> {
    const signer = await this.userOf(accountId);
    try {
      await this.deps.platform.call({ method: 'POST', path: subscriptions(await this.registeredWebhookId(), 'all'), json: {} }, signer);
      return { alreadySubscribed: false };
    } catch (error) {
      if (error instanceof PlatformRejected && error.status === 409) return { alreadySubscribed: true };
      throw error;
    }
  }

  async isSubscribed(accountId: string): Promise<boolean> {
    const signer = await this.userOf(accountId);
    const webhookId = await this.webhookId();
    if (webhookId === null) return false;
    const answer = await this.deps.platform.call({ method: 'GET', path: subscriptions(webhookId, 'all') }, signer);
    return dataOf<{ subscribed?: unknown }>(answer)?.subscribed === true;
  }

  async listSubscriptions(): Promise<string[]> {
    const webhookId = await this.webhookId();
    if (webhookId === null) return [];
    const answer = await this.deps.platform.call({ method: 'GET', path: subscriptions(webhookId, 'all/list') }, { kind: 'app' });
    return (dataOf<{ subscriptions?: { user_id?: unknown }[] }>(answer)?.subscriptions ?? []).map((s) => String(s.user_id));
  }

  async countSubscriptions(): Promise<{ all: number; directMessages: number }> {
    const answer = await this.deps.platform.call({ method: 'GET', path: '/2/account_activity/subscriptions/count' }, { kind: 'app' });
    const data = dataOf<{ subscriptions_count_all?: unknown; subscriptions_count_direct_messages?: unknown }>(answer) ?? {};
    return { all: Number(data.subscriptions_count_all ?? 0), directMessages: Number(data.subscriptions_count_direct_messages ?? 0) };
  }

  /** Removes the account's subscription with the app's bearer token; false when there was none. */
  async unsubscribe(accountId: string): Promise<boolean> {
    const webhookId = await this.webhookId();
    if (webhookId === null) return false;
    try {
      await this.deps.platform.call({ method: 'DELETE', path: subscriptions(webhookId, `${encodeURIComponent(accountId)}/all`) }, { kind: 'app' });
      return true;
    } catch (error) {
      if (error instanceof PlatformRejected && error.status === 404) return false;
      throw error;
    }
  }

  /**
   * The periodic check: re-runs the CRC of every webhook the platform marks invalid, and
   * reports it (auth announces webhook.invalid, with the note that it did) when that fails: once,
   * until the webhook is valid again.
   */
  async checkInvalid(events: Pick<AuthEvents, 'storeAndAnnounce' | 'webhookInvalid'>): Promise<WebhookCheck> {
    const registration = await this.deps.registrations.find(this.options.envName);
    const invalid: WebhookInvalidPayload[] = [];
    const webhooks = await this.list();
    for (const webhook of webhooks) {
      const ours = registration?.webhookId === webhook.id ? registration : null;
      let result: { valid: boolean; reason?: string } = { valid: true };
      if (!webhook.valid) {
        result = await this.recheck(webhook.id).catch((error: unknown) => ({ valid: false, reason: `the CRC could not be re-run: ${(error as Error).message}` }));
      }
      if (result.valid) {
        if (ours?.invalidReportedAt) await this.deps.registrations.setInvalidReported(this.options.envName, webhook.id, false);
        continue;
      }
      if (ours?.invalidReportedAt) continue;
      const payload: WebhookInvalidPayload = { envName: this.options.envName, webhookId: webhook.id, url: webhook.url, reason: result.reason ?? 'the CRC failed', checkedAt: new Date().toISOString() };
      this.deps.logger.warn('webhook invalid', { envName: payload.envName, webhookId: payload.webhookId, reason: payload.reason });
      await events.storeAndAnnounce(async (client) => {
        await events.webhookInvalid(client, payload);
        if (ours) await this.deps.registrations.setInvalidReported(this.options.envName, webhook.id, true, client);
      });
      invalid.push(payload);
    }
    return { checked: webhooks.length, invalid };
  }
}
