import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { accountActivityForm, checkXaaDelivery, type XaaDelivery } from './xaa';

/** The repository's X Activity API examples (libs/testing/fixtures/xaa), in the shapes the platform documents. */
const example = (name: string): XaaDelivery => JSON.parse(readFileSync(join(__dirname, '../../testing/fixtures/xaa', `${name}.json`), 'utf8')) as XaaDelivery;
const ACME = '7420000000000000001';
const RITA = '7420000000000000002';
const OMAR = '7420000000000000003';
const RECEIVED = '2026-11-20T12:00:00.000Z';

describe('X Activity API deliveries', () => {
  it('are known by their event type, and taken for the subscribed account', () => {
    const dm = example('dm.received');
    expect(checkXaaDelivery(dm)).toEqual({ ok: true, eventType: 'dm.received', kind: 'direct_message_events', forUserId: ACME, eventUuid: dm.data.event_uuid });
    expect(checkXaaDelivery({ data: { ...dm.data, event_type: 'dm.everything' } })).toMatchObject({ ok: false, problems: [expect.stringContaining('event_type')] });
    expect(checkXaaDelivery({ data: { ...dm.data, filter: { keyword: 'order' } } })).toMatchObject({ ok: false, problems: [expect.stringContaining('filter/user_id')] });
    expect(checkXaaDelivery({ for_user_id: ACME, direct_message_events: [] })).toMatchObject({ ok: false });
  });

  it('know the platform event names and like directions, not made-up ones', () => {
    for (const name of ['follow.follow', 'follow.unfollow', 'mute.mute', 'block.block', 'like.create.inbound', 'like.create.outbound', 'chat.received', 'oauth.revoke', 'post.delete']) {
      expect(checkXaaDelivery(example(name))).toMatchObject({ ok: true });
    }
    const follow = example('follow.follow');
    for (const eventType of ['follow.create', 'block.create', 'mute.delete']) expect(checkXaaDelivery({ data: { ...follow.data, event_type: eventType } })).toMatchObject({ ok: false });
    const like = example('like.create.inbound');
    expect(checkXaaDelivery({ data: { ...like.data, filter: { user_id: ACME, direction: 'in' } } })).toMatchObject({ ok: false, problems: [expect.stringContaining('direction')] });
  });

  it('read a legacy DM, delivered in the Account Activity shape with wrapped users, as its Account Activity delivery', () => {
    const form = accountActivityForm(example('dm.received'), RECEIVED);
    expect(form).toMatchObject({
      for_user_id: ACME,
      direct_message_events: [{ type: 'message_create', id: '7420000000000002001', created_timestamp: '1795683600000', message_create: { sender_id: RITA, target: { recipient_id: ACME }, message_data: { text: 'hi, my order 1182 has not arrived' } } }],
      users: { [RITA]: { id: RITA, screen_name: 'rita_ok', name: 'Rita Okafor', followers_count: 87 } },
    });
  });

  it('read a like by the account as the account liking the author’s post, with its timestamp_ms', () => {
    const [like] = accountActivityForm(example('like.create.outbound'), RECEIVED).favorite_events as Record<string, Record<string, unknown>>[];
    expect(like).toMatchObject({ id: '4f0c2a9e7b1d4e6f8a3c5b7d9e1f2a3b', timestamp_ms: '1795684500000', user: { id: ACME }, favorited_status: { id_str: '7420000000000003001', user: { id: RITA, screen_name: 'rita_ok' } } });
  });

  it('read a like of the account’s post with no liker named as one without a user', () => {
    const [like] = accountActivityForm(example('like.create.inbound'), RECEIVED).favorite_events as Record<string, Record<string, unknown>>[];
    expect(like).toMatchObject({ timestamp_ms: '1795684800000', favorited_status: { id_str: '7420000000000001000', user: { id: ACME } } });
    expect(like).not.toHaveProperty('user');
  });

  it('read follows, mutes and blocks from their wrapped source and target, timed when received and named by the delivery', () => {
    expect(accountActivityForm(example('follow.follow'), RECEIVED)).toMatchObject({
      for_user_id: ACME,
      follow_events: [{ type: 'follow', id: '-7001122334455667788', created_timestamp: String(Date.parse(RECEIVED)), source: { id: OMAR, screen_name: 'omar_b' }, target: { id: ACME } }],
    });
    expect(accountActivityForm(example('follow.unfollow'), RECEIVED)).toMatchObject({ follow_events: [{ type: 'unfollow' }] });
    expect(accountActivityForm(example('mute.mute'), RECEIVED)).toMatchObject({ mute_events: [{ type: 'mute', source: { id: ACME }, target: { id: OMAR } }] });
    expect(accountActivityForm(example('block.block'), RECEIVED)).toMatchObject({ block_events: [{ type: 'block', source: { id: ACME }, target: { id: OMAR } }] });
  });

  it('read a post delete (no time in it), a revoke and an encrypted chat message', () => {
    expect(accountActivityForm(example('post.delete'), RECEIVED)).toEqual({ for_user_id: ACME, tweet_delete_events: [{ status: { id: '7420000000000001001', user_id: ACME }, timestamp_ms: String(Date.parse(RECEIVED)) }] });
    expect(accountActivityForm(example('oauth.revoke'))).toEqual({ user_event: { revoke: { date_time: '2026-11-20T11:00:00+00:00', target: { app_id: '31415926' }, source: { user_id: ACME } } } });
    expect(checkXaaDelivery(example('oauth.revoke'))).toMatchObject({ ok: true, forUserId: ACME, kind: 'user_event' });
    expect(accountActivityForm(example('chat.received'))).toMatchObject({
      direct_message_events: [{ id: '0b6f2d1e-7c3a-4e59-9a41-5d2c8e7f1a20', created_timestamp: '1795685100000', message_create: { sender_id: RITA, target: { recipient_id: ACME }, message_data: { text: '', encrypted: true } } }],
    });
  });

  it('read a quote or repost of the account’s post, delivered with empty includes, as of the account’s post; a long post by its note_tweet', () => {
    const [quote] = accountActivityForm(example('post.quote.create'), RECEIVED).tweet_create_events as Record<string, Record<string, unknown>>[];
    expect(quote).toMatchObject({ is_quote_status: true, quoted_status: { id_str: '7420000000000001000', user: { id: ACME } } });
    const [repost] = accountActivityForm(example('post.repost.create'), RECEIVED).tweet_create_events as Record<string, Record<string, unknown>>[];
    expect(repost).toMatchObject({ retweeted_status: { id_str: '7420000000000001000', user: { id: ACME } } });
    const mention = example('post.mention.create');
    const long = { data: { ...mention.data, payload: { ...mention.data.payload, note_tweet: { text: `@acme_support ${'a long story '.repeat(30)}` } } } };
    const [post] = accountActivityForm(long, RECEIVED).tweet_create_events as Record<string, unknown>[];
    expect(post!.text).toMatch(/^@acme_support (a long story ){30}$/);
  });
});
