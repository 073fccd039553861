import type { WebhookInvalidPayload } from '@crm/contracts';
import type { Logger } from '@crm/logging';
import type { AccountStore } from '../adapters/accounts';
import type { AuthEvents } from '../adapters/events';
import type { PlatformClient, Signer } from '../adapters/platform/client';
import type { WebhookRegistrations } from '../adapters/webhook-registrations';
import { AccountNotConnected, NeedsOAuth1, OwnerUnknown } from '../domain/errors';
import { PlatformRejected } from '../domain/platform-errors';

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
}

interface PlatformWebhook {
  id?: unknown;
  url?: unknown;
  valid?: unknown;
  created_timestamp?: unknown;
}

const toWebhook = (raw: PlatformWebhook): Webhook => ({
  id: String(raw.id),
  url: String(raw.url),
  valid: raw.valid === true,
  createdAt: typeof raw.created_timestamp === 'string' ? raw.created_timestamp : null,
});

/**
 * The Account Activity environment: the webhook (registered, listed, re-checked and
 * deleted in the app owner's user context or with the app's bearer token, as the platform
 * wants) and the accounts subscribed to it.
 */
export class WebhookAdmin {
  private readonly base: string;

  constructor(
    private readonly deps: { platform: PlatformClient; accounts: AccountStore; registrations: WebhookRegistrations; logger: Logger },
    private readonly options: WebhookAdminOptions,
  ) {
    this.base = `/1.1/account_activity/all/${encodeURIComponent(options.envName)}`;
  }

  get envName(): string {
    return this.options.envName;
  }

  /** The account's OAuth 1.0a user context: the Account Activity API takes no other. */
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
    const answer = await this.deps.platform.call({ method: 'POST', path: `${this.base}/webhooks.json`, query: { url: this.options.publicWebhookUrl } }, await this.userOf(owner));
    const webhook = toWebhook(answer.data as PlatformWebhook);
    await this.deps.registrations.save({ envName: this.options.envName, webhookId: webhook.id, url: webhook.url, ownerAccountId: owner });
    this.deps.logger.info('webhook registered', { envName: this.options.envName, webhookId: webhook.id, url: webhook.url });
    return webhook;
  }

  async list(): Promise<Webhook[]> {
    const answer = await this.deps.platform.call({ method: 'GET', path: `${this.base}/webhooks.json` }, { kind: 'app' });
    return Array.isArray(answer.data) ? (answer.data as PlatformWebhook[]).map(toWebhook) : [];
  }

  /** Asks the platform to run the CRC again; a failed CRC is an answer here, not an error. */
  async recheck(webhookId: string, ownerAccountId?: string): Promise<{ valid: boolean; reason?: string }> {
    const owner = await this.ownerOf(ownerAccountId, webhookId);
    try {
      await this.deps.platform.call({ method: 'PUT', path: `${this.base}/webhooks/${encodeURIComponent(webhookId)}.json` }, await this.userOf(owner));
      return { valid: true };
    } catch (error) {
      if (error instanceof PlatformRejected && error.status === 400) return { valid: false, reason: error.platformMessage };
      throw error;
    }
  }

  async remove(webhookId: string, ownerAccountId?: string): Promise<void> {
    const owner = await this.ownerOf(ownerAccountId, webhookId);
    await this.deps.platform.call({ method: 'DELETE', path: `${this.base}/webhooks/${encodeURIComponent(webhookId)}.json` }, await this.userOf(owner));
    await this.deps.registrations.delete(this.options.envName, webhookId);
  }

  /** Subscribes the account (its own user context); already subscribed counts as done. */
  async subscribe(accountId: string): Promise<{ alreadySubscribed: boolean }> {
    try {
      await this.deps.platform.call({ method: 'POST', path: `${this.base}/subscriptions.json` }, await this.userOf(accountId));
      return { alreadySubscribed: false };
    } catch (error) {
      if (error instanceof PlatformRejected && error.platformCode === 355) return { alreadySubscribed: true };
      throw error;
    }
  }

  async isSubscribed(accountId: string): Promise<boolean> {
    try {
      await this.deps.platform.call({ method: 'GET', path: `${this.base}/subscriptions.json` }, await this.userOf(accountId));
      return true;
    } catch (error) {
      if (error instanceof PlatformRejected && error.status === 404) return false;
      throw error;
    }
  }

  async listSubscriptions(): Promise<string[]> {
    const answer = await this.deps.platform.call({ method: 'GET', path: `${this.base}/subscriptions/list.json` }, { kind: 'app' });
    const subscriptions = (answer.data as { subscriptions?: { user_id?: unknown }[] } | null)?.subscriptions ?? [];
    return subscriptions.map((s) => String(s.user_id));
  }

  async countSubscriptions(): Promise<{ all: number; directMessages: number }> {
    const answer = await this.deps.platform.call({ method: 'GET', path: '/1.1/account_activity/all/subscriptions/count.json' }, { kind: 'app' });
    const data = (answer.data ?? {}) as { subscriptions_count_all?: unknown; subscriptions_count_direct_messages?: unknown };
    return { all: Number(data.subscriptions_count_all ?? 0), directMessages: Number(data.subscriptions_count_direct_messages ?? 0) };
  }

  /** Removes the account's subscription with the app's bearer token; false when there was none. */
  async unsubscribe(accountId: string): Promise<boolean> {
    try {
      await this.deps.platform.call({ method: 'DELETE', path: `${this.base}/subscriptions/${encodeURIComponent(accountId)}.json` }, { kind: 'app' });
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
