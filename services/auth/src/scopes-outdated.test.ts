/**
 * An OAuth 2.0 account connected before auth asked for `like.read` and `media.write` keeps
 * working, but is told to reconnect: once, by `account.scopes-outdated` through the outbox
 * (at auth's start), and in GET /v1/accounts (`missingScopes`) until it is connected again.
 */
import { waitFor } from '@crm/testing';
import { startHarness, type Harness } from './testing/harness';

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ prefix: 'auth_scopes_outdated' });
});

afterAll(async () => {
  await h?.stop();
});

const outdatedEvents = (accountId: string) => h.published.filter((p) => p.routingKey === 'account.scopes-outdated' && p.envelope.payload.accountId === accountId);
const shown = async (accountId: string) => ((await h.crm.get('/v1/accounts')).data.items as { accountId: string; missingScopes: string[] }[]).find((a) => a.accountId === accountId);

describe('an account connected with the older scope set', () => {
  let old: string;
  let current: string;

  it('is shown with the scopes it lacks, and told once at the next start', async () => {
    old = await h.connectOAuth2('@old_scopes');
    current = await h.connectOAuth2('@new_scopes');
    expect((await shown(old))?.missingScopes).toEqual([]);
    // As if it had been connected before auth asked for like.read and media.write.
    await h.auth.pool.query(`UPDATE accounts SET scopes = array_remove(array_remove(scopes, 'like.read'), 'media.write') WHERE account_id = $1`, [old]);
    expect((await shown(old))?.missingScopes).toEqual(['like.read', 'media.write']);

    await h.restartAuth();
    await waitFor(() => outdatedEvents(old).length === 1, { what: 'account.scopes-outdated' });
    expect(outdatedEvents(old)[0]!.envelope).toMatchObject({ type: 'account.scopes-outdated.v1', payload: { accountId: old, screenName: 'old_scopes', missingScopes: ['like.read', 'media.write'] } });
    expect(outdatedEvents(current)).toHaveLength(0);
  });

  it('is not told again at later starts, and is no longer outdated once connected again', async () => {
    await h.restartAuth();
    // auth announces on one channel: once a later event arrived, a repeat would have too.
    const marker = await h.connect('@scope_marker');
    await h.waitForPublished('account.connected', (p) => p.accountId === marker);
    expect(outdatedEvents(old)).toHaveLength(1);

    await h.connectOAuth2('@old_scopes');
    expect((await shown(old))?.missingScopes).toEqual([]);
    expect((await h.auth.pool.query('SELECT scopes_notice_at FROM accounts WHERE account_id = $1', [old])).rows[0].scopes_notice_at).toBeNull();
  });
});
