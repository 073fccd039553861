/** The contracts auth shares with the rest of the system: commands, results, account events, and the auth.commands queue. */
import {
  AccountConnected,
  commandResultRoutingKey,
  Exchanges,
  Queues,
  SOCIAL_ACTIONS,
  SocialCommandResult,
  SYSTEM_TOPOLOGY,
  validateEnvelope,
  type Contract,
} from '@crm/contracts';
import { actionRoute, ACTIONS, platformIdOf, routeOf, userIdFromLookup, userLookup, userToLookUp, withUserId } from './domain/actions';

const envelope = (contract: Contract<unknown>, payload: unknown) => ({ id: 'm-1', type: contract.type, occurredAt: '2026-01-01T00:00:00.000Z', producer: 'auth', correlationId: 'c-1', payload });

describe('command contracts', () => {
  it('binds auth.commands to social.commands for every action', () => {
    const queue = SYSTEM_TOPOLOGY.queues.find((q) => q.name === Queues.authCommands);
    expect(queue?.kind).toBe('work');
    expect(queue?.bindings?.map((b) => `${b.exchange}:${b.routingKey}`).sort()).toEqual(SOCIAL_ACTIONS.map((a) => `${Exchanges.socialCommands}:${a}`).sort());
  });

  it('routes results as <action>.succeeded or <action>.failed (unknown goes with failed)', () => {
    expect(commandResultRoutingKey('send_dm', 'succeeded')).toBe('send_dm.succeeded');
    expect(commandResultRoutingKey('send_dm', 'failed')).toBe('send_dm.failed');
    expect(commandResultRoutingKey('post', 'unknown')).toBe('post.failed');
  });

  it('requires an error on a result that did not succeed, and none on one that did', () => {
    const base = { commandId: 'c1', action: 'post', accountId: '1', platformId: null, data: null, completedAt: '2026-01-01T00:00:00.000Z' };
    expect(() => validateEnvelope(envelope(SocialCommandResult, { ...base, outcome: 'unknown', error: null }))).toThrow(/error must be object/);
    expect(() =>
      validateEnvelope(envelope(SocialCommandResult, { ...base, outcome: 'succeeded', error: { code: 'platform_rejected', message: 'x', platformCode: 1, platformStatus: 403 } })),
    ).toThrow(/error must be null/);
    expect(validateEnvelope(envelope(SocialCommandResult, { ...base, outcome: 'unknown', error: { code: 'outcome_unknown', message: 'timed out', platformCode: null, platformStatus: null } }))).toBeTruthy();
  });

  it('lets no full access token through an account event (masked only)', () => {
    const payload = { accountId: '1', screenName: 'a', envName: 'dev', consumerKey: 'k', name: null, via: 'oauth', connectedAt: '2026-01-01T00:00:00.000Z' };
    expect(() => validateEnvelope(envelope(AccountConnected, { ...payload, accessTokenMasked: '370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb' }))).toThrow(/accessTokenMasked/);
    expect(validateEnvelope(envelope(AccountConnected, { ...payload, accessTokenMasked: '3707…JAEb' }))).toBeTruthy();
  });
});

describe('the action catalogue', () => {
  it('has a platform call for every action, reads as GET and writes not, v2 where the platform has the route', () => {
    for (const action of SOCIAL_ACTIONS) {
      const definition = ACTIONS[action];
      const request = definition.request({ userId: '2', listId: '3', postId: '4', collectionId: 'custom-5', eventId: '6', recipientId: '7', text: 't', name: 'n', lastReadEventId: '8', inReplyToPostId: '9' }, '1');
      expect(request.path).toMatch(definition.api === 'v2' ? /^\/2\/[a-z_]+(\/[0-9a-z_]+)*$/ : /^\/1\.1\/.+\.json$/);
      expect(request.method === 'GET').toBe(definition.kind === 'read');
      // v2 takes JSON bodies; only v1.1 takes forms.
      if (definition.api === 'v2') expect(request.form).toBeUndefined();
    }
    const v2 = SOCIAL_ACTIONS.filter((action) => ACTIONS[action].api === 'v2');
    const v2Reads = ['read_dm', 'read_dms', 'read_following', 'read_home_timeline', 'read_list_posts', 'read_lists', 'read_profile', 'read_subscribed_lists', 'read_user', 'read_user_timeline', 'search_posts'];
    const v2Writes = ['add_list_member', 'block', 'create_list', 'delete_dm', 'delete_list', 'delete_post', 'follow', 'like', 'mute', 'post', 'remove_list_member', 'reply', 'repost', 'send_dm', 'unblock', 'unfollow', 'unlike', 'unmute', 'update_list', 'upload_media'];
    expect(v2.sort()).toEqual([...v2Reads, ...v2Writes].sort());
    // Only what v2 has no route for stays on v1.1 (for OAuth 1.0a accounts only).
    expect(SOCIAL_ACTIONS.filter((action) => ACTIONS[action].api === 'v1.1').sort()).toEqual(
      [
        'read_settings',
        'read_collections',
        'read_collection_entries',
        'update_profile',
        'update_settings',
        'report',
        'create_collection',
        'update_collection',
        'delete_collection',
        'add_collection_entry',
        'remove_collection_entry',
        'mark_dm_read',
        'indicate_typing',
      ].sort(),
    );
  });

  it('reads through the v2 route of every read that has one, its answer translated into the v1.1 shape', () => {
    const input = { userId: '2', listId: '3', eventId: '6', query: 'q' };
    const reads = SOCIAL_ACTIONS.filter((action) => ACTIONS[action].kind === 'read');
    for (const action of reads) {
      const definition = ACTIONS[action];
      // A v2 read's answer is translated; a v1.1 read's is given as the platform gave it.
      expect({ action, translated: typeof definition.answer === 'function' }).toEqual({ action, translated: definition.api === 'v2' });
      if (definition.api === 'v2') expect(definition.request(input, '1')).toMatchObject({ method: 'GET', path: expect.stringMatching(/^\/2\/[a-z_]+(\/[0-9a-z_]+)*$/) });
    }
    expect(ACTIONS.read_settings.request({}, '1')).toMatchObject({ method: 'GET', path: '/1.1/account/settings.json' });
    expect(ACTIONS.read_user.request({ screenName: '@ana' }, '1')).toMatchObject({ path: '/2/users/by/username/ana' });
    expect(ACTIONS.read_home_timeline.request({ count: 3, maxId: '99' }, '1')).toMatchObject({ path: '/2/users/1/timelines/reverse_chronological', query: { max_results: '3', until_id: '100' } });
    // v2 pages at most 100.
    expect(ACTIONS.read_list_posts.request({ listId: '3', count: 200 }, '1').query).toMatchObject({ max_results: '100' });
    expect(ACTIONS.read_subscribed_lists.request({ count: 1000 }, '1').query).toMatchObject({ max_results: '100' });
  });

  it("names each call's route as the platform counts its rate limits: method and path, ids and user names aside", () => {
    expect(routeOf(ACTIONS.read_user_timeline.request({ userId: '12', count: 5 }, '1'))).toBe('GET /2/users/:id/tweets');
    expect(routeOf(ACTIONS.read_dm.request({ eventId: '6' }, '1'))).toBe('GET /2/dm_events/:id');
    expect(routeOf(ACTIONS.read_profile.request({}, '1'))).toBe('GET /2/users/me');
    expect(routeOf(ACTIONS.read_settings.request({}, '1'))).toBe('GET /1.1/account/settings.json');
    expect(routeOf(ACTIONS.update_settings.request({ lang: 'de' }, '1'))).toBe('POST /1.1/account/settings.json');
    // One route, two actions: post and reply share it, as a screen name's lookup and read_user by screen name do.
    expect(actionRoute(ACTIONS.post, { text: 'a' }, '1')).toBe(actionRoute(ACTIONS.reply, { text: 'b', inReplyToPostId: '4' }, '1'));
    expect(actionRoute(ACTIONS.read_user, { screenName: 'ana' }, '1')).toBe(routeOf(userLookup('bob')));
    expect(actionRoute(ACTIONS.read_user, { userId: '12' }, '1')).toBe('GET /2/users/:id');
    // Known before a screen name is looked up.
    expect(actionRoute(ACTIONS.read_user_timeline, { screenName: 'ana' }, '1')).toBe('GET /2/users/:id/tweets');
    expect(actionRoute(ACTIONS.follow, { screenName: 'ana' }, '7')).toBe('POST /2/users/:id/following');
    expect(actionRoute(ACTIONS.unfollow, { userId: '12' }, '7')).toBe('DELETE /2/users/:id/following/:id');
  });

  it('finds the platform id of what a write made or acted on, in v1.1 and v2 answers', () => {
    expect(platformIdOf('delete_dm', { data: { deleted: true } }, {})).toBeNull();
    // The platform's reference: a repost's own id is `rest_id`.
    expect(platformIdOf('repost', { data: { retweeted: true, rest_id: '1880000000000000002' } }, { postId: '1880000000000000001' })).toBe('1880000000000000002');
    expect(platformIdOf('update_profile', { id: 1.2e18, id_str: '1200000000000000001' }, {})).toBe('1200000000000000001');
    expect(platformIdOf('create_collection', { response: { timeline_id: 'custom-88' } }, {})).toBe('custom-88');
    expect(platformIdOf('post', { data: { id: '1445880548472328192', text: 'hi', edit_history_tweet_ids: ['1445880548472328192'] } }, {})).toBe('1445880548472328192');
    expect(platformIdOf('send_dm', { data: { dm_conversation_id: '1-2', dm_event_id: '1582838223400636420' } }, {})).toBe('1582838223400636420');
    expect(platformIdOf('create_list', { data: { id: '1441162269824405510', name: 'VIPs' } }, {})).toBe('1441162269824405510');
    // v2 answers that name nothing: the id acted on is the input's.
    expect(platformIdOf('like', { data: { liked: true } }, { postId: '44' })).toBe('44');
    expect(platformIdOf('follow', { data: { following: true, pending_follow: false } }, { userId: '55' })).toBe('55');
    expect(platformIdOf('add_list_member', { data: { is_member: true } }, { listId: '66', userId: '55' })).toBe('66');
    expect(platformIdOf('read_profile', { id_str: '5' }, {})).toBeNull();
    expect(platformIdOf('post', null, {})).toBeNull();
  });

  it('looks up a user named by screen name only for v2 routes that take ids', () => {
    expect(userToLookUp(ACTIONS.follow, { screenName: '@ana' })).toBe('ana');
    expect(userToLookUp(ACTIONS.follow, { userId: '12' })).toBeNull();
    expect(userToLookUp(ACTIONS.report, { screenName: 'ana' })).toBeNull();
    // A user's timeline through v2 takes an id; read_user has a route by username.
    expect(userToLookUp(ACTIONS.read_user_timeline, { screenName: 'ana' })).toBe('ana');
    expect(userToLookUp(ACTIONS.read_user, { screenName: 'ana' })).toBeNull();
    expect(userIdFromLookup({ data: { id: '12', name: 'Ana', username: 'ana' } }, 'ana')).toBe('12');
    const notFound = { errors: [{ value: 'ghost', detail: 'Could not find user with username: [ghost].', title: 'Not Found Error', type: 'https://api.twitter.com/2/problems/resource-not-found' }] };
    expect(() => userIdFromLookup(notFound, 'ghost')).toThrow(expect.objectContaining({ status: 404, platformCode: null, platformMessage: 'Could not find user with username: [ghost].' }));
    expect(withUserId({ screenName: 'ana', listId: '3' }, '12')).toEqual({ userId: '12', listId: '3' });
  });
});
