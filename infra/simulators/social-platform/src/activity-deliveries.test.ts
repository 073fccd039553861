import { checkDelivery } from '@crm/contracts';
import {
  appRevoked,
  markedRead,
  platformDate,
  postCreated,
  postDeleted,
  postLiked,
  tweetObject,
  typingIndicated,
  userRelation,
} from './activity-deliveries';
import { directMessageReceived } from './deliveries';
import { stableUserId } from './ids';

const account = { id: '1001', screenName: 'acme', name: 'Acme Support' };
const anaId = stableUserId('ana');
const at = Date.UTC(2026, 0, 2, 3, 4, 5);

describe('post deliveries', () => {
  it('a mention: a tweet_create_events delivery the contracts accept, with the platform quirks', () => {
    const delivery = postCreated({ account, author: '@ana', text: '@acme where is my order?', mentions: [account], userHasBlocked: 'false', eventId: '1328399838128467969', createdAt: at });
    expect(checkDelivery(delivery)).toEqual({ ok: true, kind: 'tweet_create_events', forUserId: '1001', eventCount: 1 });
    expect(delivery.user_has_blocked).toBe('false');
    const [tweet] = delivery.tweet_create_events as Record<string, unknown>[];
    expect(tweet).toMatchObject({
      id_str: '1328399838128467969',
      created_at: 'Fri Jan 02 03:04:05 +0000 2026',
      timestamp_ms: String(at),
      text: '@acme where is my order?',
      user: { id_str: anaId, screen_name: 'ana' },
      entities: { user_mentions: [{ id_str: '1001', screen_name: 'acme', indices: [0, 5] }] },
      is_quote_status: false,
      in_reply_to_status_id_str: null,
    });
    // Like the platform's, the numeric id of a 19-digit post id is inexact; id_str is the one to key on.
    expect(String(tweet!.id)).not.toBe('1328399838128467969');
  });

  it('a reply names its parent and the user replied to', () => {
    const tweet = tweetObject({ author: account, text: '@ana sorry', inReplyTo: { id: '500', author: '@ana' } });
    expect(tweet).toMatchObject({ in_reply_to_status_id_str: '500', in_reply_to_user_id_str: anaId, in_reply_to_screen_name: 'ana', user: { id_str: '1001' } });
  });

  it('a quote carries the quoted post; a repost the original, with the RT text', () => {
    const quote = tweetObject({ author: '@ana', text: 'meh', quoteOf: { id: '501', author: account, text: 'new!' } });
    expect(quote).toMatchObject({ is_quote_status: true, quoted_status_id_str: '501', quoted_status: { id_str: '501', text: 'new!', user: { id_str: '1001' } } });
    const repost = tweetObject({ author: '@ana', text: '', repostOf: { id: '502', author: account, text: 'big news' } });
    expect(repost).toMatchObject({ text: 'RT @acme: big news', retweeted_status: { id_str: '502', user: { screen_name: 'acme' } } });
  });

  it('media go into entities and extended_entities', () => {
    const tweet = tweetObject({ author: '@ana', text: 'look', media: [{ url: 'https://img.example/a.jpg' }] }) as { extended_entities: { media: Record<string, unknown>[] } };
    expect(tweet.extended_entities.media[0]).toMatchObject({ type: 'photo', media_url_https: 'https://img.example/a.jpg' });
  });

  it('a delete names the post and its author', () => {
    const delivery = postDeleted({ account, postId: '900', author: '@ana', createdAt: at });
    expect(checkDelivery(delivery)).toMatchObject({ ok: true, kind: 'tweet_delete_events' });
    expect(delivery.tweet_delete_events).toEqual([{ status: { id: '900', user_id: anaId }, timestamp_ms: String(at) }]);
  });
});

describe('other deliveries', () => {
  it('a like: a stable 32-hex id, the liked post and the liker', () => {
    const delivery = postLiked({ account, liker: '@ana', post: { id: '601', author: account, text: 'news' }, createdAt: at });
    const again = postLiked({ account, liker: '@ana', post: { id: '601', author: account, text: 'news' }, createdAt: at });
    expect(checkDelivery(delivery)).toMatchObject({ ok: true, kind: 'favorite_events' });
    const [like] = delivery.favorite_events as Record<string, unknown>[];
    expect(like).toMatchObject({ id: expect.stringMatching(/^[0-9a-f]{32}$/), created_at: platformDate(at), timestamp_ms: at, user: { id_str: anaId }, favorited_status: { id_str: '601' } });
    expect(again).toEqual(delivery);
  });

  it.each([
    ['follow_events', 'follow'],
    ['follow_events', 'unfollow'],
    ['block_events', 'block'],
    ['block_events', 'unblock'],
    ['mute_events', 'mute'],
    ['mute_events', 'unmute'],
  ] as const)('%s %s: users with a string id and no id_str', (kind, type) => {
    const delivery = userRelation(kind, { account, type, source: account, target: '@ana', createdAt: at });
    expect(checkDelivery(delivery)).toMatchObject({ ok: true, kind, forUserId: '1001' });
    const [event] = delivery[kind] as Record<string, Record<string, unknown>>[];
    expect(event).toMatchObject({ type, created_timestamp: String(at), source: { id: '1001' }, target: { id: anaId, screen_name: 'ana' } });
    expect(event!.target).not.toHaveProperty('id_str');
  });

  it('typing and read receipts with their users map', () => {
    const typing = typingIndicated({ account, sender: '@ana', recipient: account, createdAt: at });
    expect(checkDelivery(typing)).toMatchObject({ ok: true, kind: 'direct_message_indicate_typing_events' });
    expect(typing).toMatchObject({ direct_message_indicate_typing_events: [{ sender_id: anaId, target: { recipient_id: '1001' }, created_timestamp: String(at) }], users: { [anaId]: { screen_name: 'ana' } } });
    const read = markedRead({ account, sender: '@ana', recipient: account, lastReadEventId: '77' });
    expect(read).toMatchObject({ direct_message_mark_read_events: [{ last_read_event_id: '77' }] });
  });

  it('a revoke: a user_event without for_user_id', () => {
    const delivery = appRevoked({ account, createdAt: at });
    expect(checkDelivery(delivery)).toEqual({ ok: true, kind: 'user_event', forUserId: null, eventCount: 1 });
    expect(delivery).toEqual({ user_event: { revoke: { date_time: '2026-01-02T03:04:05+00:00', target: { app_id: expect.any(String) }, source: { user_id: '1001' } } } });
  });

  it('a DM with a media attachment', () => {
    const dm = directMessageReceived({ account, customer: '@ana', text: 'see', media: { url: 'https://img.example/b.png', type: 'photo' } });
    expect(dm.direct_message_events[0]!.message_create.message_data.attachment).toMatchObject({ type: 'media', media: { type: 'photo', media_url_https: 'https://img.example/b.png' } });
  });
});
