import type { SocialEvent } from './social-events';
import {
  appRevoked,
  markedRead,
  postCreated,
  postDeleted,
  postLiked,
  relationUser,
  tweetObject,
  typingIndicated,
  userRelation,
} from '@crm/social-platform-simulator/src/activity-deliveries';
import { directMessageReceived, directMessageSent } from '@crm/social-platform-simulator/src/deliveries';
import { stableUserId } from '@crm/social-platform-simulator/src/ids';
import { dmDelivery, dmEvent, rawActivity, userObject } from '../testing/deliveries';
import { filledTemplate, fixture, repairedOfficialDm } from '../testing/fixtures';
import { interpretActivity } from './activity';
import { InvalidActivity } from './errors';

const ACCOUNT = '4337869213';
const CUSTOMER = '3001969357';

function errorOf(work: () => unknown): InvalidActivity {
  try {
    work();
  } catch (error) {
    if (error instanceof InvalidActivity) return error;
    throw error;
  }
  throw new Error('expected an InvalidActivity');
}

const interpret = (delivery: object) => interpretActivity(rawActivity(delivery));
const only = <K extends SocialEvent['kind']>(delivery: object, kind: K) => {
  const { events } = interpret(delivery);
  expect(events.map((event) => event.kind)).toEqual([kind]);
  return events[0] as Extract<SocialEvent, { kind: K }>;
};

function dm(event: Record<string, unknown>) {
  return dmDelivery(ACCOUNT, [event], [userObject(CUSTOMER, 'furiouscamper', 'Jordan Brinks')]);
}

describe('direct_message_events', () => {
  it('turns the official example (with top-level users) into one received DM with its sender', () => {
    const result = interpret(repairedOfficialDm());
    expect(result.accountId).toBe(ACCOUNT);
    expect(result.ignored).toEqual([]);
    const event = only(repairedOfficialDm(), 'dm_received');
    expect(event).toMatchObject({
      accountId: ACCOUNT,
      platformEventId: '954491830116155396',
      occurredAt: new Date(1516403560557).toISOString(),
      text: 'Hello World!',
      senderId: CUSTOMER,
      recipientId: ACCOUNT,
      attachments: [],
      counterpart: {
        id: CUSTOMER,
        screenName: 'furiouscamper',
        name: 'Jordan Brinks',
        avatarUrl: 'https://pbs.twimg.com/profile_images/851526626785480705/cW4WTi7C_normal.jpg',
        followersCount: 22,
        verified: false,
      },
    });
    expect(event.counterpart.raw).toMatchObject({ location: 'Boulder, CO' });
  });

  it("treats a customer's DM as received although it carries the customer app's source_app_id", () => {
    expect(only(repairedOfficialDm(), 'dm_received').sourceAppId).toBe('13090192');
  });

  it('reads the official example as published too, finding the sender inside `apps` where it was misplaced', () => {
    const event = only(fixture('direct_message_events.official.json'), 'dm_received');
    expect(event.counterpart).toMatchObject({ id: CUSTOMER, screenName: 'furiouscamper', name: 'Jordan Brinks' });
  });

  it('gives the same events when ids and timestamps arrive as numbers', () => {
    const asStrings = interpret(dm(dmEvent({ id: '1001', from: CUSTOMER, to: ACCOUNT, text: 'hi', at: 1700000000000 })));
    const numeric = dmDelivery(Number(ACCOUNT), [dmEvent({ id: 1001, from: Number(CUSTOMER), to: Number(ACCOUNT), text: 'hi', at: 1700000000000, numericTimestamp: true })], [
      { ...userObject(CUSTOMER, 'furiouscamper', 'Jordan Brinks'), id: Number(CUSTOMER) },
    ]);
    const asNumbers = interpret(numeric);
    const withoutRaw = (events: SocialEvent[]) => events.map((event) => ({ ...event, raw: null, counterpart: 'counterpart' in event ? { ...event.counterpart, raw: null } : null }));
    expect(withoutRaw(asNumbers.events)).toEqual(withoutRaw(asStrings.events));
    expect(asNumbers.events[0]).toMatchObject({ platformEventId: '1001', senderId: CUSTOMER });
  });

  it('recognises a DM sent by the account (sender = account) as sent, its counterpart the recipient', () => {
    const event = only(dm(dmEvent({ id: '1002', from: ACCOUNT, to: CUSTOMER, text: 'on its way', sourceAppId: '13090192' })), 'dm_sent');
    expect(event).toMatchObject({ counterpart: { id: CUSTOMER, screenName: 'furiouscamper' }, sourceAppId: '13090192', text: 'on its way' });
  });

  it("reads the simulator's DMs, received and sent, with a media attachment", () => {
    const received = only(directMessageReceived({ account: ACCOUNT, customer: '@ana', text: 'see photo', media: { url: 'https://img.example/a.jpg' } }), 'dm_received');
    expect(received.attachments).toEqual([{ type: 'photo', url: 'https://img.example/a.jpg', mediaId: expect.stringMatching(/^[0-9]+$/) }]);
    expect(received.counterpart).toMatchObject({ id: stableUserId('ana'), screenName: 'ana' });
    const sent = only(directMessageSent({ account: ACCOUNT, customer: '@ana', text: 'thanks' }), 'dm_sent');
    expect(sent.counterpart.id).toBe(stableUserId('ana'));
    expect(sent.sourceAppId).not.toBeNull();
  });

  it('yields one event per DM of a delivery', () => {
    const delivery = dmDelivery(ACCOUNT, [
      dmEvent({ id: '1', from: CUSTOMER, to: ACCOUNT, text: 'one' }),
      dmEvent({ id: '2', from: '42', to: ACCOUNT, text: 'two' }),
      dmEvent({ id: '3', from: ACCOUNT, to: '42', text: 'three' }),
    ]);
    expect(interpret(delivery).events.map((e) => [e.kind, e.platformEventId])).toEqual([
      ['dm_received', '1'],
      ['dm_received', '2'],
      ['dm_sent', '3'],
    ]);
  });

  describe('names the field of a delivery it cannot use', () => {
    type Event = Record<string, unknown> & { message_create: Record<string, unknown> };
    const base = (): Event => dmEvent({ id: '1003', from: CUSTOMER, to: ACCOUNT, text: 'x' }) as Event;

    it.each([
      ['a missing sender', (e: Event) => delete e.message_create.sender_id, /direct_message_events\[0\]\.message_create\.sender_id is missing/],
      ['a garbled sender', (e: Event) => (e.message_create.sender_id = 'ana'), /message_create\.sender_id must be a platform id/],
      ['a missing recipient', (e: Event) => (e.message_create.target = {}), /message_create\.target\.recipient_id is missing/],
      ['a missing event id', (e: Event) => delete e.id, /direct_message_events\[0\]\.id is missing/],
      ['a fractional event id', (e: Event) => (e.id = 1.5), /direct_message_events\[0\]\.id must be a platform id/],
      ['a garbled timestamp', (e: Event) => (e.created_timestamp = 'yesterday'), /created_timestamp must be milliseconds/],
      ['a missing text', (e: Event) => (e.message_create.message_data = {}), /message_data\.text is missing/],
      ['a missing message_create', (e: Event) => delete (e as Record<string, unknown>).message_create, /direct_message_events\[0\]\.message_create is missing/],
      ['a missing type', (e: Event) => delete e.type, /direct_message_events\[0\]\.type is missing/],
      ['an unknown type', (e: Event) => (e.type = 'message_delete'), /type 'message_delete' is not a DM event type ticketing knows/],
    ])('%s', (_name, spoil, message) => {
      const event = base();
      spoil(event);
      expect(errorOf(() => interpret(dm(event))).message).toMatch(message);
    });

    it('a DM between two other users', () => {
      expect(errorOf(() => interpret(dm(dmEvent({ id: '1004', from: CUSTOMER, to: '77', text: 'x' })))).message).toMatch(/neither the sender .* nor the recipient .* is the account/);
    });

    it('a missing or contradicting account', () => {
      const payload = rawActivity(dm(dmEvent({ id: '1005', from: CUSTOMER, to: ACCOUNT, text: 'x' })));
      expect(errorOf(() => interpretActivity({ ...payload, forUserId: null, delivery: { ...payload.delivery, for_user_id: undefined } })).message).toMatch(/forUserId is missing/);
      expect(errorOf(() => interpretActivity({ ...payload, forUserId: '1' })).message).toMatch(/forUserId 1 does not match delivery.for_user_id/);
    });

    it('a non-object event', () => {
      expect(errorOf(() => interpret(dmDelivery(ACCOUNT, ['x' as unknown as Record<string, unknown>]))).message).toMatch(/direct_message_events\[0\] must be an object/);
    });
  });
});

describe('typing indicators and read receipts', () => {
  it('ignores the official examples as published: neither party is the account they were delivered for', () => {
    for (const name of ['direct_message_indicate_typing_events.official.json', 'direct_message_mark_read_events.official.json']) {
      const result = interpret(fixture(name));
      expect(result.events).toEqual([]);
      expect(result.ignored[0]!.reason).toMatch(/neither the sender .* nor the recipient .* is the account 4337869213/);
    }
  });

  it('reads them for the account they involve: a customer typing, a customer reading up to a DM', () => {
    const typing = only({ ...fixture('direct_message_indicate_typing_events.official.json'), for_user_id: CUSTOMER }, 'dm_typing');
    expect(typing).toMatchObject({ accountId: CUSTOMER, counterpartId: '3284025577', byAccount: false, occurredAt: new Date(1518127183443).toISOString() });
    const read = only({ ...fixture('direct_message_mark_read_events.official.json'), for_user_id: CUSTOMER }, 'dm_read');
    expect(read).toMatchObject({ counterpartId: '199566737', byAccount: false, lastReadEventId: '963085315333238788' });
  });

  it("reads the simulator's: the account typing, the customer reading", () => {
    const typing = only(typingIndicated({ account: ACCOUNT, sender: ACCOUNT, recipient: '@ana' }), 'dm_typing');
    expect(typing).toMatchObject({ byAccount: true, counterpartId: stableUserId('ana') });
    const read = only(markedRead({ account: ACCOUNT, sender: '@ana', recipient: ACCOUNT, lastReadEventId: '77' }), 'dm_read');
    expect(read).toMatchObject({ byAccount: false, counterpartId: stableUserId('ana'), lastReadEventId: '77' });
  });
});

describe('tweet_create_events', () => {
  const ana = { screenName: 'ana', name: 'Ana Lima' };
  const anaId = stableUserId('ana');

  it("the quote fixture: keyed by id_str (its numeric id lost digits), full text, and the account's own quote when the account wrote it", () => {
    const tweet = fixture('tweet_create_events.quote.tweet_object_only.official.json');
    const own = only({ for_user_id: '2244994945', tweet_create_events: [tweet] }, 'quote_by_account');
    expect(own.platformEventId).toBe('1328399838128467969');
    expect(own.post.text).toMatch(/^As planned, the Labs v2 endpoints .* X API v2! https:\/\/t\.co\/JaxttUMmjX$/);
    expect(own.post.quotedPost).toMatchObject({ id: '1327011423252144128', author: { id: '2244994945', screenName: 'XDevelopers', verified: true } });
    expect(own.post.lang).toBe('en');
    expect(own.occurredAt).toBe('2020-11-16T18:09:36.000Z');
    // Delivered to another account (it must mention it), it is a mention.
    expect(only({ for_user_id: '1001', tweet_create_events: [tweet] }, 'mention').post.author.followersCount).toBe(512292);
  });

  it('the mention template, user_has_blocked as a string', () => {
    const tweet = tweetObject({ author: ana, text: '@acme where is my order?', mentions: ['2244994945'] });
    const mention = only(filledTemplate('tweet_create_events.mention.official-template.txt', { tweet }), 'mention');
    expect(mention).toMatchObject({ accountId: '2244994945', authorBlockedByAccount: false, post: { author: { id: anaId, screenName: 'ana' }, mentionedUserIds: ['2244994945'] } });
    const blocked = only({ ...filledTemplate('tweet_create_events.mention.official-template.txt', { tweet }), user_has_blocked: true }, 'mention');
    expect(blocked.authorBlockedByAccount).toBe(true);
  });

  it.each([
    ['post_by_account', () => postCreated({ account: ACCOUNT, author: ACCOUNT, text: 'Our summer sale starts today' })],
    ['reply_by_account', () => postCreated({ account: ACCOUNT, author: ACCOUNT, text: '@ana sorry!', inReplyTo: { id: '500', author: ana } })],
    ['quote_by_account', () => postCreated({ account: ACCOUNT, author: ACCOUNT, text: 'Thanks!', quoteOf: { id: '501', author: ana, text: 'love it' } })],
    ['repost_by_account', () => postCreated({ account: ACCOUNT, author: ACCOUNT, text: '', repostOf: { id: '502', author: ana, text: 'great service' } })],
    ['mention', () => postCreated({ account: ACCOUNT, author: ana, text: '@acme hello', mentions: [ACCOUNT], userHasBlocked: 'false' })],
    ['reply_to_account', () => postCreated({ account: ACCOUNT, author: ana, text: 'still waiting', inReplyTo: { id: '503', author: ACCOUNT } })],
    ['quote_of_account', () => postCreated({ account: ACCOUNT, author: ana, text: 'meh', quoteOf: { id: '504', author: ACCOUNT, text: 'new product' } })],
    ['repost_of_account', () => postCreated({ account: ACCOUNT, author: ana, text: '', repostOf: { id: '505', author: ACCOUNT, text: 'new product' } })],
    ['mention', () => postCreated({ account: ACCOUNT, author: ana, text: '@bob @acme agreed', inReplyTo: { id: '506', author: '@bob' } })],
  ] as const)('sorts the simulator post into %s', (kind, build) => {
    only(build(), kind);
  });

  it('keeps what threading and contacts need: parent, reply-to user, media, language', () => {
    const reply = only(
      postCreated({ account: ACCOUNT, author: ana, text: 'photo of the box', inReplyTo: { id: '503', author: ACCOUNT }, media: [{ url: 'https://img.example/box.jpg' }], lang: 'pt' }),
      'reply_to_account',
    );
    expect(reply.post).toMatchObject({ inReplyToPostId: '503', inReplyToUserId: ACCOUNT, lang: 'pt', media: [{ type: 'photo', url: 'https://img.example/box.jpg' }] });
    const repost = only(postCreated({ account: ACCOUNT, author: ana, text: '', repostOf: { id: '505', author: ACCOUNT, text: 'new product' } }), 'repost_of_account');
    expect(repost.original).toMatchObject({ id: '505', text: 'new product', author: { id: ACCOUNT } });
  });

  it("ignores someone else's repost of a post that is not the account's", () => {
    const result = interpret(postCreated({ account: ACCOUNT, author: ana, text: '', repostOf: { id: '507', author: '@bob', text: '@acme is great' } }));
    expect(result.events).toEqual([]);
    expect(result.ignored[0]!.reason).toMatch(/a repost by .* of post 507, which is not the account's/);
  });

  it('names a garbled creation date', () => {
    const delivery = postCreated({ account: ACCOUNT, author: ana, text: 'x' }) as { tweet_create_events: Record<string, unknown>[] };
    delete delivery.tweet_create_events[0]!.timestamp_ms;
    delivery.tweet_create_events[0]!.created_at = 'yesterday';
    expect(errorOf(() => interpret(delivery as unknown as Record<string, unknown>)).message).toMatch(/tweet_create_events\[0\]\.created_at must be a date like/);
  });
});

describe('tweet_delete_events', () => {
  it('the official example: the post, its author, when', () => {
    expect(only(fixture('tweet_delete_events.official.json'), 'post_deleted')).toMatchObject({
      accountId: '930524282358325248',
      postId: '1045405559317569537',
      authorId: '930524282358325248',
      occurredAt: new Date(1432228155593).toISOString(),
      platformEventId: 'delete:1045405559317569537',
    });
    expect(only(postDeleted({ account: ACCOUNT, postId: '900', author: '@ana' }), 'post_deleted').authorId).toBe(stableUserId('ana'));
  });
});

describe('favorite_events', () => {
  it("the template: someone liking the account's post", () => {
    const tweet = fixture('tweet_create_events.quote.tweet_object_only.official.json');
    const user = fixture<{ block_events: { target: Record<string, unknown> }[] }>('block_events.block.SYNTHESIZED.json').block_events[0]!.target;
    const like = only(filledTemplate('favorite_events.official-template.txt', { tweet, user }), 'like_of_account');
    expect(like).toMatchObject({
      platformEventId: 'a7ba59eab0bfcba386f7acedac279542',
      occurredAt: new Date(1522082006140).toISOString(),
      liker: { id: '1205290247124217856', screenName: 'pennbrooke1' },
      likedPost: { id: '1328399838128467969' },
    });
  });

  it('the account liking a post, and a customer liking the account\'s', () => {
    only(postLiked({ account: ACCOUNT, liker: ACCOUNT, post: { id: '600', author: '@ana', text: 'my order arrived' } }), 'like_by_account');
    const like = only(postLiked({ account: ACCOUNT, liker: '@ana', post: { id: '601', author: ACCOUNT, text: 'news' } }), 'like_of_account');
    expect(like.liker?.screenName).toBe('ana');
  });
});

describe('follow, block and mute events', () => {
  it.each([
    ['follow', true, 'follow_by_account'],
    ['follow', false, 'follow_of_account'],
    ['unfollow', true, 'unfollow_by_account'],
    ['unfollow', false, 'unfollow_of_account'],
  ] as const)('%s by the account: %s -> %s', (type, byAccount, kind) => {
    const event = only(userRelation('follow_events', { account: ACCOUNT, type, source: byAccount ? ACCOUNT : '@ana', target: byAccount ? '@ana' : ACCOUNT, createdAt: 1517588749178 }), kind);
    expect(event.platformEventId).toBe(`${type}:${byAccount ? ACCOUNT : stableUserId('ana')}:${byAccount ? stableUserId('ana') : ACCOUNT}:1517588749178`);
  });

  it.each([
    ['block_events.block.SYNTHESIZED.json', 'block'],
    ['block_events.unblock.SYNTHESIZED.json', 'unblock'],
    ['mute_events.mute.SYNTHESIZED.json', 'mute'],
    ['mute_events.unmute.SYNTHESIZED.json', 'unmute'],
  ] as const)('%s: the account did it to the target', (name, kind) => {
    const event = only(fixture(name), kind);
    expect(event).toMatchObject({ accountId: '2975699229', target: { id: '1205290247124217856', screenName: 'pennbrooke1', followersCount: 1 } });
  });

  it('refuses an unknown type and an action the account did not take', () => {
    expect(errorOf(() => interpret(userRelation('follow_events', { account: ACCOUNT, type: 'poke', source: ACCOUNT, target: '@ana' }))).message).toMatch(
      /follow_events\[0\]\.type 'poke' is not a follow event type ticketing knows/,
    );
    expect(errorOf(() => interpret(userRelation('block_events', { account: ACCOUNT, type: 'block', source: '@ana', target: ACCOUNT }))).message).toMatch(
      /block_events\[0\]\.source: the platform reports only the account's own blocks/,
    );
    const delivery = { for_user_id: ACCOUNT, mute_events: [{ type: 'mute', created_timestamp: '1', source: relationUser(ACCOUNT), target: {} }] };
    expect(errorOf(() => interpret(delivery)).message).toMatch(/mute_events\[0\]\.target\.id is missing/);
  });
});

describe('user_event', () => {
  it('the official revoke: the account is the revoking user (no for_user_id)', () => {
    expect(only(fixture('user_event.revoke.official.json'), 'subscription_revoked')).toMatchObject({
      accountId: '63046977',
      appId: '13090192',
      occurredAt: '2018-05-24T09:48:12.000Z',
    });
    expect(only(appRevoked({ account: ACCOUNT }), 'subscription_revoked').accountId).toBe(ACCOUNT);
  });

  it('refuses a user event it does not know, and a revoke for another account than forUserId', () => {
    expect(errorOf(() => interpret({ user_event: { deactivate: { source: { user_id: '1' } } } })).message).toMatch(/forUserId is missing/);
    expect(errorOf(() => interpretActivity({ ...rawActivity({ user_event: { poke: {} } }), forUserId: '5' })).message).toMatch(/user_event\.poke is not a user event ticketing knows/);
    expect(errorOf(() => interpretActivity({ ...rawActivity(fixture('user_event.revoke.official.json')), forUserId: '5' })).message).toMatch(/forUserId 5 does not match user_event\.revoke\.source\.user_id 63046977/);
  });
});
