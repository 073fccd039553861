import type { Post, PostDeleted, PostRef, SocialEvent } from './social-events';
import type { IgnoredActivity } from './events';
import {
  booleanish,
  epochMillis,
  isRecord,
  objectId,
  optionalObjectId,
  optionalRecord,
  platformDate,
  requiredArray,
  requiredRecord,
  requiredString,
  text,
} from './platform-values';
import { mediaOf, socialUser } from './users';

type PostKindEvent = Extract<SocialEvent, { post: Post }>;

function fullText(tweet: Record<string, unknown>, at: string): string {
  const extended = isRecord(tweet.extended_tweet) ? tweet.extended_tweet : null;
  const candidate = extended?.full_text ?? tweet.full_text ?? tweet.text;
  return requiredString(candidate, `${at}.text`);
}

function mentionedUserIds(tweet: Record<string, unknown>): string[] {
  const extended = isRecord(tweet.extended_tweet) ? tweet.extended_tweet : null;
  const entities = isRecord(extended?.entities) ? extended.entities : isRecord(tweet.entities) ? tweet.entities : null;
  const mentions = Array.isArray(entities?.user_mentions) ? entities.user_mentions : [];
  const ids: string[] = [];
  for (const mention of mentions) {
    // Entities are decoration: a garbled one is skipped rather than failing the delivery.
    try {
      if (isRecord(mention)) ids.push(objectId(mention, 'mention'));
    } catch {
      continue;
    }
  }
  return [...new Set(ids)];
}

function mediaOfPost(tweet: Record<string, unknown>) {
  const extended = isRecord(tweet.extended_tweet) ? tweet.extended_tweet : null;
  for (const holder of [extended?.extended_entities, extended?.entities, tweet.extended_entities, tweet.entities]) {
    if (isRecord(holder) && Array.isArray(holder.media)) return mediaOf(holder.media);
  }
  return [];
}

/** A referenced post (liked, reposted, quoted): what the delivery tells of it, never failing on its extras. */
export function postRef(value: Record<string, unknown>, at: string): PostRef {
  const user = optionalRecord(value.user, `${at}.user`);
  let postText: string | null = null;
  try {
    postText = fullText(value, at);
  } catch {
    postText = null;
  }
  return { id: objectId(value, at), text: postText, author: user ? socialUser(user, `${at}.user`) : null };
}

function parsePost(tweet: Record<string, unknown>, at: string): Post {
  const quoted = optionalRecord(tweet.quoted_status, `${at}.quoted_status`);
  const quotedId = optionalObjectId(tweet, at, 'quoted_status_id');
  const lang = text(tweet.lang);
  return {
    id: objectId(tweet, at),
    text: fullText(tweet, at),
    lang: lang && lang !== 'und' ? lang : null,
    author: socialUser(requiredRecord(tweet.user, `${at}.user`), `${at}.user`),
    inReplyToPostId: optionalObjectId(tweet, at, 'in_reply_to_status_id'),
    inReplyToUserId: optionalObjectId(tweet, at, 'in_reply_to_user_id'),
    inReplyToScreenName: text(tweet.in_reply_to_screen_name),
    quotedPost: quoted ? postRef(quoted, `${at}.quoted_status`) : quotedId ? { id: quotedId, text: null, author: null } : null,
    mentionedUserIds: mentionedUserIds(tweet),
    media: mediaOfPost(tweet),
  };
}

/** When a post was made: `timestamp_ms` when given, else `created_at`. */
function postTime(tweet: Record<string, unknown>, at: string): string {
  const date = tweet.timestamp_ms !== undefined ? epochMillis(tweet.timestamp_ms, `${at}.timestamp_ms`) : platformDate(tweet.created_at, `${at}.created_at`);
  return date.toISOString();
}

/**
 * Sorts a post into its kind, from the account's point of view. The account's own posts are
 * reposts, replies, quotes or plain posts (in that order of precedence); posts by others are
 * reposts or quotes of the account's posts, replies to the account, or else mentions (the
 * platform only delivers others' posts that involve the account). A repost by someone else
 * of a post that is not the account's is ignored: it repeats a post, it says nothing new.
 */
function classifyPost(
  accountId: string,
  tweet: Record<string, unknown>,
  at: string,
  userHasBlocked: boolean | null,
): { event: PostKindEvent } | { ignored: IgnoredActivity } {
  const post = parsePost(tweet, at);
  const common = { accountId, platformEventId: post.id, occurredAt: postTime(tweet, at), raw: tweet, post };
  const reposted = optionalRecord(tweet.retweeted_status, `${at}.retweeted_status`);
  const byAccount = post.author.id === accountId;
  const isQuote = tweet.is_quote_status === true && post.quotedPost !== null;

  if (reposted) {
    const original = postRef(reposted, `${at}.retweeted_status`);
    if (byAccount) return { event: { ...common, kind: 'repost_by_account', original } };
    if (original.author?.id === accountId) return { event: { ...common, kind: 'repost_of_account', original } };
    return { ignored: { reason: `${at}: a repost by ${post.author.id} of post ${original.id}, which is not the account's` } };
  }
  if (byAccount) {
    if (post.inReplyToPostId) return { event: { ...common, kind: 'reply_by_account' } };
    if (isQuote) return { event: { ...common, kind: 'quote_by_account' } };
    return { event: { ...common, kind: 'post_by_account' } };
  }
  if (isQuote && post.quotedPost?.author?.id === accountId) return { event: { ...common, kind: 'quote_of_account' } };
  if (post.inReplyToPostId && post.inReplyToUserId === accountId) return { event: { ...common, kind: 'reply_to_account' } };
  return { event: { ...common, kind: 'mention', authorBlockedByAccount: userHasBlocked } };
}

export function interpretPosts(accountId: string, delivery: Record<string, unknown>): { events: PostKindEvent[]; ignored: IgnoredActivity[] } {
  const userHasBlocked = booleanish(delivery.user_has_blocked);
  const events: PostKindEvent[] = [];
  const ignored: IgnoredActivity[] = [];
  requiredArray(delivery.tweet_create_events, 'tweet_create_events').forEach((item, index) => {
    const at = `tweet_create_events[${index}]`;
    const result = classifyPost(accountId, requiredRecord(item, at), at, userHasBlocked);
    if ('event' in result) events.push(result.event);
    else ignored.push(result.ignored);
  });
  return { events, ignored };
}

/** `tweet_delete_events`: the post (by the account or anyone it holds) is marked deleted. */
export function interpretPostDeletes(accountId: string, delivery: Record<string, unknown>): PostDeleted[] {
  return requiredArray(delivery.tweet_delete_events, 'tweet_delete_events').map((item, index) => {
    const at = `tweet_delete_events[${index}]`;
    const event = requiredRecord(item, at);
    const status = requiredRecord(event.status, `${at}.status`);
    const postId = objectId(status, `${at}.status`);
    return {
      kind: 'post_deleted',
      accountId,
      platformEventId: `delete:${postId}`,
      occurredAt: epochMillis(event.timestamp_ms, `${at}.timestamp_ms`).toISOString(),
      raw: event,
      postId,
      authorId: optionalObjectId(status, `${at}.status`, 'user_id'),
    };
  });
}
