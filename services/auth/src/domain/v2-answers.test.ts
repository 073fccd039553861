import { asV1DmEvent, asV1DmEvents, asV1Following, asV1Lists, asV1Search, asV1SubscribedLists, asV1Statuses, asV1User, paginationTokenFor, untilIdFor, v1Date, v2Page } from './v2-answers';

const ana = {
  id: '1001',
  name: 'Ana',
  username: 'ana',
  created_at: '2013-12-14T04:35:55.000Z',
  description: 'hi',
  location: 'Lisbon',
  protected: false,
  verified: true,
  url: '',
  profile_image_url: 'https://pbs.example/ana_normal.png',
  public_metrics: { followers_count: 10, following_count: 3, tweet_count: 42, listed_count: 1 },
};
const bo = { id: '1002', name: 'Bo', username: 'bo_b' };

describe('v2 answers in the v1.1 shape', () => {
  it('writes times as v1.1 does', () => {
    expect(v1Date('2026-11-25T09:05:03.000Z')).toBe('Wed Nov 25 09:05:03 +0000 2026');
    expect(v1Date('not a time')).toBeNull();
  });

  it('turns a v2 user into a v1.1 user: id_str, screen_name, counters, url null when empty', () => {
    expect(asV1User({ data: ana })).toEqual({
      id: 1001,
      id_str: '1001',
      name: 'Ana',
      screen_name: 'ana',
      location: 'Lisbon',
      description: 'hi',
      url: null,
      protected: false,
      verified: true,
      followers_count: 10,
      friends_count: 3,
      listed_count: 1,
      statuses_count: 42,
      created_at: 'Sat Dec 14 04:35:55 +0000 2013',
      profile_image_url_https: 'https://pbs.example/ana_normal.png',
    });
  });

  it('refuses as the platform would when v2 answers only errors: not found 404, not authorized 403', () => {
    const problem = (type: string, detail: string) => ({ errors: [{ title: 'Some Error', detail, type: `https://api.twitter.com/2/problems/${type}` }] });
    expect(() => asV1User(problem('resource-not-found', 'Could not find user with username: [ghost].'))).toThrow(
      expect.objectContaining({ status: 404, platformCode: null, platformMessage: 'Could not find user with username: [ghost].', problem: 'Some Error' }),
    );
    expect(() => asV1Statuses(problem('not-authorized-for-resource', 'Sorry, you are not authorized to see the user with id: [9].'), 20)).toThrow(expect.objectContaining({ status: 403 }));
    // Errors next to data (a partial answer) are not a refusal.
    expect(asV1User({ data: bo, errors: [{ title: 'x' }] })).toMatchObject({ screen_name: 'bo_b' });
  });

  it('turns posts into statuses: author, reply, mentions, repost and quote from includes, counts, at most `keep`', () => {
    const answer = {
      data: [
        {
          id: '30',
          text: '@bo_b thanks',
          author_id: '1001',
          created_at: '2026-11-25T09:05:03.000Z',
          in_reply_to_user_id: '1002',
          referenced_tweets: [{ type: 'replied_to', id: '20' }],
          entities: { mentions: [{ start: 0, end: 5, username: 'bo_b', id: '1002' }], hashtags: [{ start: 6, end: 9, tag: 'x' }] },
          public_metrics: { retweet_count: 2, like_count: 5, reply_count: 0, quote_count: 0 },
          lang: 'en',
        },
        { id: '25', text: 'RT @bo_b: hello', author_id: '1001', created_at: '2026-11-25T09:00:00.000Z', referenced_tweets: [{ type: 'retweeted', id: '20' }] },
        { id: '22', text: 'look at this', author_id: '1001', created_at: '2026-11-25T08:00:00.000Z', referenced_tweets: [{ type: 'quoted', id: '20' }] },
      ],
      includes: { users: [ana, bo], tweets: [{ id: '20', text: 'hello', author_id: '1002', created_at: '2026-11-24T08:00:00.000Z' }] },
      meta: { result_count: 3, newest_id: '30', oldest_id: '22' },
    };
    const [reply, repost, quote] = asV1Statuses(answer, 20);
    expect(reply).toMatchObject({
      id: 30,
      id_str: '30',
      text: '@bo_b thanks',
      created_at: 'Wed Nov 25 09:05:03 +0000 2026',
      in_reply_to_status_id_str: '20',
      in_reply_to_user_id_str: '1002',
      in_reply_to_screen_name: 'bo_b',
      user: { id_str: '1001', screen_name: 'ana', followers_count: 10 },
      entities: { user_mentions: [{ screen_name: 'bo_b', name: 'Bo', id_str: '1002', indices: [0, 5] }], hashtags: [{ text: 'x', indices: [6, 9] }] },
      retweet_count: 2,
      favorite_count: 5,
      favorited: false,
      retweeted: false,
      is_quote_status: false,
      lang: 'en',
    });
    expect(reply).not.toHaveProperty('retweeted_status');
    expect(reply).not.toHaveProperty('full_text');
    expect(repost).toMatchObject({ text: 'RT @bo_b: hello', in_reply_to_status_id_str: null, retweeted_status: { id_str: '20', text: 'hello', user: { screen_name: 'bo_b' } } });
    expect(quote).toMatchObject({ is_quote_status: true, quoted_status_id_str: '20', quoted_status: { id_str: '20' } });
    expect(asV1Statuses(answer, 2)).toHaveLength(2);
    // No posts: v2 leaves `data` out.
    expect(asV1Statuses({ meta: { result_count: 0 } }, 20)).toEqual([]);
  });

  it('answers a search as {statuses (with full_text), search_metadata}', () => {
    const answer = { data: [{ id: '40', text: 'late parcel', author_id: '1001' }], includes: { users: [ana] }, meta: { result_count: 1, newest_id: '40', oldest_id: '40' } };
    expect(asV1Search(answer, { query: 'late parcel', sinceId: '7', keep: 15 })).toEqual({
      statuses: [expect.objectContaining({ id_str: '40', text: 'late parcel', full_text: 'late parcel', user: expect.objectContaining({ screen_name: 'ana' }) })],
      search_metadata: { max_id: 40, max_id_str: '40', since_id: 7, since_id_str: '7', query: 'late%20parcel', count: 15, refresh_url: '?since_id=40&q=late%20parcel&result_type=recent&include_entities=1' },
    });
    expect(asV1Search({ meta: { result_count: 0 } }, { query: 'q', sinceId: null, keep: 15 })).toMatchObject({ statuses: [], search_metadata: { max_id_str: '0', since_id_str: '0' } });
  });

  it('answers followed accounts as friends/list.json, the next token as the cursor', () => {
    expect(asV1Following({ data: [ana, bo], meta: { result_count: 2, next_token: 'abc1' } })).toEqual({
      users: [expect.objectContaining({ id_str: '1001', screen_name: 'ana' }), expect.objectContaining({ id_str: '1002', screen_name: 'bo_b' })],
      next_cursor: 'abc1',
      next_cursor_str: 'abc1',
      previous_cursor: 0,
      previous_cursor_str: '0',
    });
    expect(asV1Following({ meta: { result_count: 0 } })).toMatchObject({ users: [], next_cursor: 0, next_cursor_str: '0' });
  });

  it('answers owned lists as lists/list.json', () => {
    const answer = {
      data: [{ id: '77', name: 'Top VIPs', created_at: '2026-11-25T09:05:03.000Z', description: 'd', follower_count: 4, member_count: 2, private: true, owner_id: '1001' }],
      includes: { users: [ana] },
      meta: { result_count: 1 },
    };
    expect(asV1Lists(answer)).toEqual([
      {
        id: 77,
        id_str: '77',
        name: 'Top VIPs',
        slug: 'top-vips',
        full_name: '@ana/top-vips',
        uri: '/ana/lists/top-vips',
        description: 'd',
        mode: 'private',
        member_count: 2,
        subscriber_count: 4,
        following: false,
        created_at: 'Wed Nov 25 09:05:03 +0000 2026',
        user: expect.objectContaining({ id_str: '1001', screen_name: 'ana' }),
      },
    ]);
  });

  it('answers followed lists as lists/subscriptions.json, the next token as the cursor', () => {
    const answer = { data: [{ id: '78', name: 'Shipping News', private: false, owner_id: '1001' }], includes: { users: [ana] }, meta: { result_count: 1, next_token: 'nx2' } };
    expect(asV1SubscribedLists(answer)).toEqual({
      lists: [expect.objectContaining({ id_str: '78', name: 'Shipping News', mode: 'public', user: expect.objectContaining({ screen_name: 'ana' }) })],
      next_cursor: 'nx2',
      next_cursor_str: 'nx2',
      previous_cursor: 0,
      previous_cursor_str: '0',
    });
    expect(asV1SubscribedLists({ meta: { result_count: 0 } })).toEqual({ lists: [], next_cursor: 0, next_cursor_str: '0', previous_cursor: 0, previous_cursor_str: '0' });
  });

  it('answers DM events as direct_messages/events: the recipient from the conversation, one-to-one messages only', () => {
    const sent = { id: '900', event_type: 'MessageCreate', text: 'hello', sender_id: '1002', dm_conversation_id: '1001-1002', created_at: '2026-11-25T09:05:03.000Z' };
    const expected = {
      type: 'message_create',
      id: '900',
      created_timestamp: String(Date.parse('2026-11-25T09:05:03.000Z')),
      message_create: { target: { recipient_id: '1001' }, sender_id: '1002', message_data: { text: 'hello', entities: { hashtags: [], symbols: [], user_mentions: [], urls: [] } } },
    };
    const group = { ...sent, id: '901', dm_conversation_id: '1582838223400636420' };
    const joined = { id: '902', event_type: 'ParticipantsJoin', dm_conversation_id: '1001-1002' };
    expect(asV1DmEvents({ data: [sent, group, joined], meta: { result_count: 3, next_token: 'n1' } })).toEqual({ events: [expected], next_cursor: 'n1' });
    expect(asV1DmEvents({ meta: { result_count: 0 } })).toEqual({ events: [] });
    expect(asV1DmEvent({ data: sent }, '900')).toEqual({ event: expected });
    expect(() => asV1DmEvent({ data: group }, '901')).toThrow(expect.objectContaining({ status: 404 }));
  });

  it('maps v1.1 paging onto v2: count within max_results bounds, max_id inclusive, first-page cursors', () => {
    expect(v2Page(undefined, 20, { min: 5, max: 100 })).toEqual({ maxResults: 20, keep: 20 });
    expect(v2Page(3, 20, { min: 5, max: 100 })).toEqual({ maxResults: 5, keep: 3 });
    expect(v2Page(200, 20, { min: 5, max: 100 })).toEqual({ maxResults: 100, keep: 100 });
    expect(untilIdFor('1999999999999999999')).toBe('2000000000000000000');
    expect(untilIdFor(undefined)).toBeUndefined();
    expect(paginationTokenFor('-1')).toBeUndefined();
    expect(paginationTokenFor('0')).toBeUndefined();
    expect(paginationTokenFor('7140dibdnow9c7btw3w29grvxfcgvpb9n9coehpk7xz5i')).toBe('7140dibdnow9c7btw3w29grvxfcgvpb9n9coehpk7xz5i');
  });
});
