import { appRevoked, markedRead, postCreated, postDeleted, postLiked, typingIndicated, userRelation, type PostTarget } from './activity-deliveries';
import {
  dmText,
  invalid,
  optionalBoolean,
  optionalDigits,
  optionalEventId,
  optionalMedia,
  optionalPostRef,
  optionalText,
  optionalTime,
  userRef,
  type Body,
} from './control-input';
import { directMessageReceived, directMessageSent } from './deliveries';
import { resolveUser, type UserInput } from './users';

/** What `POST /control/activities` (and `pnpm sim activity <kind>`) can make the platform deliver. */
export const ACTIVITY_KINDS = [
  'post',
  'reply',
  'mention',
  'quote',
  'repost',
  'like',
  'follow',
  'unfollow',
  'block',
  'unblock',
  'mute',
  'unmute',
  'dm',
  'dm-sent',
  'typing',
  'read',
  'delete',
  'revoke',
] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

const MAX_POST_LENGTH = 280;

function required<T>(value: T | undefined, field: string, what: string): T {
  if (value === undefined) throw invalid(field, `is required for this kind: ${what}`);
  return value;
}

/** What every kind of activity request gives: its parties, its timing, and how to read its post fields. */
function activityRequest(body: Body) {
  if (typeof body.kind !== 'string' || !(ACTIVITY_KINDS as readonly string[]).includes(body.kind)) throw invalid('kind', `must be one of ${ACTIVITY_KINDS.join(', ')}`);
  const kind = body.kind as ActivityKind;
  const account = userRef(body, 'account');
  const byAccount = optionalBoolean(body, 'byAccount') ?? false;
  const other = () => userRef(body, 'user');
  const eventId = optionalEventId(body);
  const createdAt = optionalTime(body, 'createdAt');
  const timing = { ...(eventId ? { eventId } : {}), ...(createdAt !== undefined ? { createdAt } : {}) };
  const lang = optionalText(body, 'lang', 10);
  const media = optionalMedia(body, 'media');
  return {
    kind,
    account,
    timing,
    media,
    other,
    common: { account, ...timing, ...(lang ? { lang } : {}), ...(media ? { media: [media] } : {}) },
    actor: () => (byAccount ? account : other()),
    counterpart: () => (byAccount ? other() : account),
    postText: () => required(optionalText(body, 'text', MAX_POST_LENGTH), 'text', 'the text of the post'),
    /** The post this activity refers to; its author is the other side unless given. */
    target: (field: string, defaultAuthor: () => UserInput): PostTarget => {
      const ref = required(optionalPostRef(body, field), field, '{id, author?, text?} of the post');
      return { id: ref.id, author: ref.author ?? defaultAuthor(), ...(ref.text ? { text: ref.text } : {}) };
    },
  };
}

/** A post of the other party naming the account (its handle added to the text when missing). */
function mentionDelivery(body: Body, request: ReturnType<typeof activityRequest>): Record<string, unknown> {
  const user = request.other();
  const handle = `@${resolveUser(request.account).screenName}`;
  const text = request.postText();
  const userHasBlocked = body.userHasBlocked;
  if (userHasBlocked !== undefined && typeof userHasBlocked !== 'boolean' && userHasBlocked !== 'true' && userHasBlocked !== 'false') {
    throw invalid('userHasBlocked', 'must be true, false, "true" or "false"');
  }
  return postCreated({
    ...request.common,
    author: user,
    text: text.includes(handle) ? text : `${handle} ${text}`,
    mentions: [request.account],
    ...(userHasBlocked !== undefined ? { userHasBlocked } : {}),
  });
}

/**
 * Turns a control request into the delivery the platform would send. `account` is the
 * subscribed account, `user` the other party; `byAccount` says the account did it (its
 * reply, quote, repost, like, follow, typing), otherwise the user did it to the account.
 * Posts referred to default their author to the other side.
 */
export function activityDelivery(body: Body): { kind: ActivityKind; delivery: Record<string, unknown> } {
  const request = activityRequest(body);
  const { kind, account, timing, media, common, other, actor, counterpart, postText, target } = request;
  switch (kind) {
    case 'post':
      return { kind: 'post', delivery: postCreated({ ...common, author: account, text: postText() }) };
    case 'mention':
      return { kind: 'mention', delivery: mentionDelivery(body, request) };
    case 'reply':
      return { kind: 'reply', delivery: postCreated({ ...common, author: actor(), text: postText(), inReplyTo: target('inReplyTo', counterpart) }) };
    case 'quote':
      return { kind: 'quote', delivery: postCreated({ ...common, author: actor(), text: postText(), quoteOf: target('post', counterpart) }) };
    case 'repost':
      return { kind: 'repost', delivery: postCreated({ ...common, author: actor(), text: '', repostOf: target('post', counterpart) }) };
    case 'like':
      return { kind: 'like', delivery: postLiked({ ...timing, account, liker: actor(), post: target('post', counterpart) }) };
    case 'follow':
    case 'unfollow':
      return { kind, delivery: userRelation('follow_events', { ...timing, account, type: kind, source: actor(), target: counterpart() }) };
    case 'block':
    case 'unblock':
      return { kind, delivery: userRelation('block_events', { ...timing, account, type: kind, source: account, target: other() }) };
    case 'mute':
    case 'unmute':
      return { kind, delivery: userRelation('mute_events', { ...timing, account, type: kind, source: account, target: other() }) };
    case 'dm':
    case 'dm-sent': {
      const build = kind === 'dm' ? directMessageReceived : directMessageSent;
      return { kind, delivery: { ...build({ ...timing, account, customer: other(), text: dmText(body), ...(media ? { media } : {}) }) } };
    }
    case 'typing':
      return { kind, delivery: typingIndicated({ ...timing, account, sender: actor(), recipient: counterpart() }) };
    case 'read': {
      const lastReadEventId = required(optionalDigits(body, 'lastReadEventId'), 'lastReadEventId', 'the id of the last DM read');
      return { kind, delivery: markedRead({ ...timing, account, sender: actor(), recipient: counterpart(), lastReadEventId }) };
    }
    case 'delete': {
      const post = required(optionalPostRef(body, 'post'), 'post', '{id, author?} of the deleted post');
      return { kind, delivery: postDeleted({ ...timing, account, postId: post.id, author: post.author ?? account }) };
    }
    case 'revoke':
      return { kind, delivery: appRevoked({ ...timing, account }) };
  }
}
