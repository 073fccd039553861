import { DEFAULT_APP } from '../deliveries';
import { nextEventId } from '../ids';
import { postDeleted } from '../activity-deliveries';
import { postCreated, postLiked, userRelation } from './activity';
import type { PlatformContext } from './context';
import { PlatformError } from './errors';
import { mentionsOf } from './objects';
import type { DirectMessage, List, PlatformState, Post, UserRecord } from './state';
import type { RelationKind } from '../activity-deliveries';

/**
 * What an account's action does on the platform, whichever API version asked for it: the state
 * changes now, and `announce`, which the route calls once it has answered, for the deliveries
 * that follow (Account Activity and X Activity API alike).
 */

export interface Effect<T> {
  value: T;
  announce: () => void;
}

/** A post (or a reply): the author, the author of the post it answers and everyone it mentions get it, once each. */
export function createPost(ctx: PlatformContext, me: UserRecord, text: string, replyTo?: string): Effect<Post> {
  const { state, activity } = ctx;
  const own = [...state.posts.values()].filter((p) => p.authorId === me.id && !p.repostOf).sort((a, b) => b.createdAt - a.createdAt);
  if (own[0]?.text === text) throw new PlatformError(403, 187, 'Status is a duplicate.');
  let inReplyTo: Post['inReplyTo'];
  if (replyTo !== undefined) {
    const parent = state.posts.get(replyTo);
    if (!parent || !state.canSee(me.id, parent.authorId)) throw new PlatformError(403, 385, 'You attempted to reply to a Tweet that is deleted or not visible to you.');
    inReplyTo = { postId: parent.id, userId: parent.authorId };
  }
  const post = state.addPost({ authorId: me.id, text, ...(inReplyTo ? { inReplyTo } : {}) });
  const recipients = new Set([me.id, ...(inReplyTo ? [inReplyTo.userId] : []), ...mentionsOf(state, text).map((m) => String(m.id_str))]);
  return { value: post, announce: () => recipients.forEach((userId) => activity.deliver(userId, postCreated(state, userId, post))) };
}

/** Deleting one's own post, delivered to the author as a delete. */
export function deletePost(ctx: PlatformContext, me: UserRecord, post: Post): Effect<Post> {
  const { state, activity } = ctx;
  if (post.authorId !== me.id) throw new PlatformError(403, 183, "You may not delete another user's status.");
  state.posts.delete(post.id);
  return { value: post, announce: () => activity.deliver(me.id, postDeleted({ account: me.id, postId: post.id, author: post.authorId })) };
}

/** A like, delivered to the liker and the post's author. */
export function like(ctx: PlatformContext, me: UserRecord, post: Post): Effect<Post> {
  const { state, activity } = ctx;
  const liked = state.setOf(state.likes, me.id);
  if (liked.has(post.id)) throw new PlatformError(403, 139, 'You have already favorited this status.');
  liked.add(post.id);
  return {
    value: post,
    announce: () => {
      activity.deliver(me.id, postLiked(state, me.id, me, post));
      if (post.authorId !== me.id) activity.deliver(post.authorId, postLiked(state, post.authorId, me, post));
    },
  };
}

/** A repost of a post the account may see, once. */
export function repost(ctx: PlatformContext, me: UserRecord, original: Post): Effect<Post> {
  const { state, activity } = ctx;
  if ([...state.posts.values()].some((p) => p.repostOf === original.id && p.authorId === me.id)) throw new PlatformError(403, 327, 'You have already retweeted this Tweet.');
  if (!state.canSee(me.id, original.authorId)) throw new PlatformError(404, 144, 'No status found with that ID.');
  const post = state.addPost({ authorId: me.id, text: '', repostOf: original.id });
  return { value: post, announce: () => activity.deliver(me.id, postCreated(state, me.id, post)) };
}

const RELATIONS: Record<RelationKind, { map: 'following' | 'blocking' | 'muting'; add: string; remove: string }> = {
  follow_events: { map: 'following', add: 'follow', remove: 'unfollow' },
  block_events: { map: 'blocking', add: 'block', remove: 'unblock' },
  mute_events: { map: 'muting', add: 'mute', remove: 'unmute' },
};

/** Follow, block or mute `target` (or undo it); delivered when it changed something. */
export function relate(ctx: PlatformContext, kind: RelationKind, me: UserRecord, target: UserRecord, add: boolean): Effect<UserRecord> {
  const { state, activity } = ctx;
  const { map, add: addType, remove } = RELATIONS[kind];
  if (target.id === me.id) throw new PlatformError(403, 158, "You can't do that to yourself.");
  const set = state.setOf(state[map], me.id);
  const changed = set.has(target.id) !== add;
  if (add) set.add(target.id);
  else set.delete(target.id);
  if (add && map === 'blocking') state.setOf(state.following, me.id).delete(target.id);
  const type = add ? addType : remove;
  const announce = () => {
    if (!changed) return;
    activity.deliver(me.id, userRelation(kind, type, me.id, me, target));
    if (kind === 'follow_events' && type === 'follow') activity.deliver(target.id, userRelation(kind, type, target.id, me, target));
  };
  return { value: target, announce };
}

/** A DM from the account, delivered to both sides. */
export function sendDirectMessage(ctx: PlatformContext, me: UserRecord, recipient: UserRecord, text: string, mediaId?: string): Effect<DirectMessage> {
  const { state, activity } = ctx;
  if (state.setOf(state.blocking, recipient.id).has(me.id)) throw new PlatformError(403, 349, 'You cannot send messages to this user.');
  const dm: DirectMessage = { id: nextEventId(), senderId: me.id, recipientId: recipient.id, text, createdAt: Date.now(), sourceAppId: DEFAULT_APP.id, hiddenFor: new Set(), ...(mediaId ? { mediaId } : {}) };
  state.directMessages.set(dm.id, dm);
  return { value: dm, announce: () => activity.directMessage(dm) };
}

/** Lists produce no account activity: these change state only, the same whichever API version asked. */
export interface ListFields {
  name?: string;
  mode?: List['mode'];
  description?: string;
}

export function createList(state: PlatformState, me: UserRecord, fields: ListFields & { name: string }): List {
  const list: List = { id: nextEventId(), ownerId: me.id, name: fields.name, mode: fields.mode ?? 'public', description: fields.description ?? '', createdAt: Date.now(), members: new Set(), subscribers: new Set() };
  state.lists.set(list.id, list);
  return list;
}

/** The list `id`, which `me` must own to change it. */
export function ownedList(state: PlatformState, me: UserRecord, id: string): List {
  const list = state.lists.get(id);
  if (!list) throw new PlatformError(404, 34, 'Sorry, that page does not exist.', {}, `no list ${id}`);
  if (list.ownerId !== me.id) throw new PlatformError(403, 220, 'Your credentials do not allow access to this resource.', {}, 'not the list owner');
  return list;
}

export function updateList(list: List, fields: ListFields): List {
  list.name = fields.name ?? list.name;
  list.description = fields.description ?? list.description;
  list.mode = fields.mode ?? list.mode;
  return list;
}

export function deleteList(state: PlatformState, list: List): List {
  state.lists.delete(list.id);
  return list;
}

export function setListMember(list: List, member: UserRecord, add: boolean): List {
  if (add) list.members.add(member.id);
  else list.members.delete(member.id);
  return list;
}
