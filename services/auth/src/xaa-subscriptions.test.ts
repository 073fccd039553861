/**
 * auth's X Activity API subscriptions against the simulated platform: made in the platform's
 * event names and filters, private events with the account's OAuth 2.0 token and public ones
 * with the app's bearer token, read back through the paginated list when the platform already
 * has one; a subscription that cannot be made (an account without OAuth 2.0, a refusal) is
 * logged and reported while the others, oauth.revoke last, are still made.
 */
import { AccountStore } from './adapters/accounts';
import { Keyring } from './adapters/keyring';
import { PlatformClient, type Signer } from './adapters/platform/client';
import { XaaStore } from './adapters/xaa-store';
import type { PlatformRequest } from './domain/actions';
import { PlatformRejected } from './domain/platform-errors';
import { HELP_DESK_EVENT_TYPES } from './domain/xaa';
import { XaaAdmin } from './operations/xaa';
import { startHarness, type Harness } from './testing/harness';

let h: Harness;
let platform: PlatformClient;
let store: XaaStore;

beforeAll(async () => {
  h = await startHarness({ prefix: 'auth_xaa_subscriptions' });
  platform = new PlatformClient({ baseUrl: h.simulatorUrl, consumerKey: h.secrets.consumerKey, consumerSecret: h.secrets.consumerSecret, timeoutMs: 5_000, logger: h.logger });
  store = new XaaStore(h.auth.pool, h.config.SOCIAL_ENV_NAME);
  const made = await platform.call({ method: 'POST', path: '/2/webhooks', json: { url: h.webhook!.url } }, { kind: 'app' });
  const webhook = (made.data as { data: { id: string; url: string } }).data;
  await store.saveWebhook({ webhookId: webhook.id, url: webhook.url });
});

afterAll(async () => {
  await h?.stop();
});

/** The platform, refusing like.create subscriptions as it does for a token without like.read. */
class RefusingLikes {
  constructor(private readonly real: PlatformClient) {}
  call(request: PlatformRequest, signer: Signer) {
    const body = request.json as { event_type?: string } | undefined;
    if (request.method === 'POST' && request.path === '/2/activity/subscriptions' && body?.event_type === 'like.create') {
      return Promise.reject(new PlatformRejected(403, null, 'The token does not hold the like.read scope.', 'Forbidden'));
    }
    return this.real.call(request, signer);
  }
}

/** The platform, listing subscriptions two a page whatever page size auth asks for. */
class SmallPages {
  constructor(private readonly real: PlatformClient) {}
  call(request: PlatformRequest, signer: Signer) {
    const listing = request.method === 'GET' && request.path === '/2/activity/subscriptions';
    return this.real.call(listing ? { ...request, query: { ...request.query, max_results: '2' } } : request, signer);
  }
}

const admin = (client: Pick<PlatformClient, 'call'>) =>
  new XaaAdmin({ platform: client as PlatformClient, accounts: new AccountStore(h.auth.pool, new Keyring(h.config.CREDENTIALS_KEY, h.config.CREDENTIALS_KEY_PREVIOUS)), store, logger: h.logger }, { webhookUrl: `${h.config.PUBLIC_WEBHOOK_URL}/xaa`, eventTypes: HELP_DESK_EVENT_TYPES, allowLocalWebhookUrl: true });

it('subscribes in the platform names and filters, private events with the account’s OAuth 2.0 token, and finds existing ones through every page of the list', async () => {
  const account = await h.connectOAuth2('@subs_acme');
  const first = await admin(platform).subscribe(account);
  expect(first).toMatchObject({ created: [...HELP_DESK_EVENT_TYPES], existing: [], refused: [] });
  const posted = (await h.platformRequests('/2/activity/subscriptions', 'POST')).filter((r) => r.status === 200).map((r) => r.json as { event_type: string; filter: object });
  expect(posted).toContainEqual(expect.objectContaining({ event_type: 'like.create', filter: { user_id: account, direction: 'inbound' } }));
  expect(posted).toContainEqual(expect.objectContaining({ event_type: 'follow.follow', filter: { user_id: account } }));
  const callers = Object.fromEntries((await h.platformRequests('/2/activity/subscriptions', 'POST')).map((r) => [(r.json as { event_type: string }).event_type, r.caller]));
  expect(callers['dm.received']).toEqual({ kind: 'user', userId: account });
  expect(callers['like.create']).toEqual({ kind: 'user', userId: account });
  expect(callers['post.delete']).toEqual({ kind: 'app' });

  const again = await admin(new SmallPages(platform)).subscribe(account);
  expect(again).toMatchObject({ created: [], existing: [...HELP_DESK_EVENT_TYPES], refused: [] });
  const pages = await h.platformRequests('/2/activity/subscriptions', 'GET');
  expect(pages.some((r) => r.query.pagination_token !== undefined)).toBe(true);
  expect((await store.subscriptionsOf(account)).map((s) => s.eventType).sort()).toEqual([...HELP_DESK_EVENT_TYPES].sort());
});

it('reports a refused subscription and goes on with the next event types, oauth.revoke included', async () => {
  const account = await h.connectOAuth2('@subs_refused');
  const result = await admin(new RefusingLikes(platform)).subscribe(account);
  expect(result.refused).toEqual([{ eventType: 'like.create', reason: expect.stringContaining('like.read') }]);
  expect(result.created).toEqual(HELP_DESK_EVENT_TYPES.filter((type) => type !== 'like.create'));
  expect(result.created).toContain('oauth.revoke');
  expect(h.logLines.some((line) => line.includes('xaa subscription refused') && line.includes('like.create'))).toBe(true);
});

it('makes only the public subscriptions of an account connected with OAuth 1.0a, and says why the private ones are not made', async () => {
  const account = await h.connect('@subs_oauth1');
  const result = await admin(platform).subscribe(account);
  expect(result.created).toEqual(['post.delete', 'follow.follow', 'oauth.revoke']);
  expect(result.refused.map((r) => r.eventType)).toEqual(HELP_DESK_EVENT_TYPES.filter((type) => !result.created.includes(type)));
  expect(result.refused[0]!.reason).toMatch(/OAuth 2\.0/);
});

it('is refused a private subscription made with the app’s bearer token, as the platform refuses it', async () => {
  const account = await h.connectOAuth2('@subs_app_token');
  await expect(platform.call({ method: 'POST', path: '/2/activity/subscriptions', json: { event_type: 'dm.received', filter: { user_id: account } } }, { kind: 'app' })).rejects.toMatchObject({ status: 403 });
});
