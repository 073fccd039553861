import { mask } from '@crm/secrets';
import type { AccountView } from './account-view';

export type { AccountView };

type Loose = Record<string, unknown>;
const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const itemsOf = (body: unknown): Loose[] => (body && typeof body === 'object' && Array.isArray((body as Loose).items) ? ((body as Loose).items as Loose[]) : []);
/** Keys already masked by a service keep their form; others are masked here. */
const masked = (value: unknown): string | null => {
  const given = text(value);
  return given === null ? null : given.includes('…') ? given : mask(given);
};

/** ticketing's `silence: {silentSince, detectedAt}`, or null (also when ticketing sends none). */
const silenceOf = (value: unknown): AccountView['silence'] => {
  if (!value || typeof value !== 'object') return null;
  const silentSince = text((value as Loose).silentSince);
  const detectedAt = text((value as Loose).detectedAt);
  return silentSince && detectedAt ? { silentSince, detectedAt } : null;
};

/**
 * Merges what auth knows (credentials, status, protocol), what ticketing knows (its mirror
 * with the silence alarm, the partner configurations) and the webhooks' validity into one
 * list, by account id. auth's status wins where both know the account; an invalid webhook
 * marks every connected account.
 */
export function mergeAccounts(authBody: unknown, ticketingBody: unknown, configsBody: unknown, webhooksBody: unknown): AccountView[] {
  const views = new Map<string, AccountView>();
  const webhookInvalid = itemsOf(webhooksBody).some((hook) => hook.valid === false);
  const entry = (accountId: string): AccountView => {
    let view = views.get(accountId);
    if (!view) {
      view = { accountId, screenName: null, name: null, state: 'unknown', stateReason: null, consumerKey: null, accessToken: null, configured: false, pageName: null, protocol: null, silence: null };
      views.set(accountId, view);
    }
    return view;
  };
  for (const account of itemsOf(ticketingBody)) {
    const view = entry(String(account.accountId));
    view.screenName = text(account.screenName);
    view.state = text(account.status) ?? view.state;
    view.consumerKey = masked(account.consumerKey);
    view.accessToken = masked(account.accessToken);
    view.silence = silenceOf(account.silence);
  }
  for (const account of itemsOf(authBody)) {
    const view = entry(String(account.accountId));
    view.screenName = text(account.screenName) ?? view.screenName;
    view.name = text(account.name);
    view.state = text(account.status) ?? view.state;
    view.stateReason = text(account.statusReason);
    view.consumerKey = masked(account.consumerKey) ?? view.consumerKey;
    view.accessToken = masked(account.accessTokenMasked) ?? view.accessToken;
    view.protocol = account.protocol === 'oauth2' || account.protocol === 'oauth1' ? account.protocol : null;
  }
  for (const config of itemsOf(configsBody)) {
    const view = entry(String(config.pageId));
    view.configured = true;
    view.pageName = text(config.pageName);
    if (view.state === 'unknown') view.state = text(config.accountStatus) ?? 'unknown';
  }
  for (const view of views.values()) {
    if (webhookInvalid && view.state === 'connected') {
      view.state = 'webhook_invalid';
      view.stateReason = 'the webhook failed its last check: deliveries may not arrive until it is fixed';
    }
  }
  return [...views.values()].sort((a, b) => a.accountId.localeCompare(b.accountId));
}
