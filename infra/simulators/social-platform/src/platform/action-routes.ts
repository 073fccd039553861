import type { Request, Response, Router } from 'express';
import { postDeleted, type RelationKind } from '../activity-deliveries';
import { nextEventId } from '../ids';
import { createList, createPost, deleteList, deletePost, like, ownedList, relate, repost, sendDirectMessage, setListMember, updateList } from './effects';
import { actingUser, answer, authenticate, callerOf, param, tweetMode } from './authn';
import type { PlatformContext } from './context';
import { Errors, PlatformError } from './errors';
import { collectionAnswer, jsonInteger, collectionEntriesAnswer, collectionsListAnswer, directMessageEvent, listObject, postObject, settingsObject, userObject } from './objects';
import type { Collection, List, PlatformState, Post, UserRecord } from './state';

const ID = /^[0-9]{1,20}$/;

function idParam(res: Response, name: string): string {
  const value = param(res, name);
  if (value === undefined || value === '') throw Errors.missingParameter(name);
  if (!ID.test(value)) throw Errors.invalidParameter(name);
  return value;
}

function countParam(res: Response, fallback: number, max: number): number {
  const value = param(res, 'count');
  if (value === undefined) return fallback;
  const count = Number(value);
  if (!Number.isInteger(count) || count < 1) throw Errors.invalidParameter('count');
  return Math.min(count, max);
}

const boolParam = (res: Response, name: string, fallback: boolean) => {
  const value = param(res, name);
  return value === undefined ? fallback : value === 'true' || value === '1';
};

/** The user named by `user_id` or `screen_name`. */
function targetUser(state: PlatformState, res: Response, fallback?: UserRecord): UserRecord {
  const userId = param(res, 'user_id');
  const screenName = param(res, 'screen_name');
  if (userId) {
    if (!ID.test(userId)) throw Errors.invalidParameter('user_id');
    return state.user({ id: userId });
  }
  if (screenName) {
    if (!/^@?[A-Za-z0-9_]{1,15}$/.test(screenName)) throw Errors.userNotFound();
    return state.user({ screenName });
  }
  if (fallback) return fallback;
  throw new PlatformError(400, 38, 'user_id or screen_name parameter is missing.');
}

const byNewest = (a: Post, b: Post) => (BigInt(b.id) > BigInt(a.id) ? 1 : BigInt(b.id) < BigInt(a.id) ? -1 : 0);

/** count / since_id / max_id paging over posts, newest first. */
function page(res: Response, posts: Post[]): Post[] {
  const count = countParam(res, 20, 200);
  const sinceId = param(res, 'since_id');
  const maxId = param(res, 'max_id');
  return posts
    .filter((p) => (!sinceId || BigInt(p.id) > BigInt(sinceId)) && (!maxId || BigInt(p.id) <= BigInt(maxId)))
    .sort(byNewest)
    .slice(0, count);
}

function postById(state: PlatformState, id: string): Post {
  const post = state.posts.get(id);
  if (!post) throw Errors.noStatus();
  return post;
}

function listById(state: PlatformState, res: Response, owner?: UserRecord): List {
  const id = idParam(res, 'list_id');
  if (owner) return ownedList(state, owner, id);
  const list = state.lists.get(id);
  if (!list) throw Errors.notFound();
  return list;
}

function collectionById(state: PlatformState, res: Response, owner?: UserRecord): Collection {
  const id = param(res, 'id');
  if (!id) throw Errors.missingParameter('id');
  const collection = state.collections.get(id);
  if (!collection) throw Errors.notFound();
  if (owner && collection.ownerId !== owner.id) throw new PlatformError(403, 220, 'Your credentials do not allow access to this resource.', {}, 'not the collection owner');
  return collection;
}

function text(res: Response, name: string, max: number, field = name): string {
  const value = param(res, name);
  if (value === undefined) throw Errors.missingParameter(field);
  if ([...value].length > max) throw new PlatformError(403, 186, 'Tweet needs to be a bit shorter.');
  return value;
}

/** What every group of action routes mounts with: the router, the platform, user-context (or app-only: `userOrApp`) authentication and the v1.1 path. */
interface ActionRouteKit {
  router: Router;
  ctx: PlatformContext;
  state: PlatformState;
  user: ReturnType<typeof authenticate>;
  userOrApp: ReturnType<typeof authenticate>;
  v: (path: string) => string;
}

/** The user a user-context call is made as; undefined for the app's bearer token (app-only: it sees what is public). */
function viewerOf(res: Response): UserRecord | undefined {
  const who = callerOf(res);
  return who.kind === 'user' ? who.user : undefined;
}

/** The profile and settings. */
function profileRoutes({ router, state, user, userOrApp, v }: ActionRouteKit): void {
  router.get(v('account/verify_credentials.json'), user, async (_req, res) => answer(res, 200, userObject(actingUser(res))));
  router.get(v('users/show.json'), userOrApp, async (_req, res) => answer(res, 200, userObject(targetUser(state, res))));
  router.get(v('account/settings.json'), user, async (_req, res) => {
    const me = actingUser(res);
    await answer(res, 200, settingsObject(me, state.settingsOf(me.id)));
  });
  router.post(v('account/settings.json'), user, async (_req, res) => {
    const me = actingUser(res);
    const settings = state.settingsOf(me.id);
    const lang = param(res, 'lang');
    const timeZone = param(res, 'time_zone');
    if (lang !== undefined) settings.lang = lang;
    if (timeZone !== undefined) settings.timeZone = timeZone;
    if (param(res, 'sleep_time_enabled') !== undefined) settings.sleepTimeEnabled = boolParam(res, 'sleep_time_enabled', false);
    for (const [name, key] of [['start_sleep_time', 'startSleepTime'], ['end_sleep_time', 'endSleepTime']] as const) {
      const value = param(res, name);
      if (value === undefined) continue;
      if (!/^([01]?[0-9]|2[0-3])$/.test(value)) throw Errors.invalidParameter(name);
      settings[key] = Number(value);
    }
    await answer(res, 200, settingsObject(me, settings));
  });
  router.post(v('account/update_profile.json'), user, async (_req, res) => {
    const me = actingUser(res);
    for (const [name, key] of [['name', 'name'], ['url', 'url'], ['location', 'location'], ['description', 'description']] as const) {
      const value = param(res, name);
      if (value !== undefined) me[key] = value;
    }
    await answer(res, 200, userObject(me));
  });
}

/** The timelines. */
function timelineRoutes({ router, state, user, userOrApp, v }: ActionRouteKit): void {
  router.get(v('statuses/home_timeline.json'), user, async (_req, res) => {
    const me = actingUser(res);
    const followed = state.setOf(state.following, me.id);
    const posts = [...state.posts.values()].filter((p) => (p.authorId === me.id || followed.has(p.authorId)) && state.canSee(me.id, p.authorId));
    await answer(res, 200, page(res, posts).map((p) => postObject(state, p, me.id, tweetMode(res))));
  });
  // App-only: the user must be named, and a protected account's posts are not shown.
  router.get(v('statuses/user_timeline.json'), userOrApp, async (_req, res) => {
    const me = viewerOf(res);
    const author = targetUser(state, res, me);
    const visible = me ? state.canSee(me.id, author.id) : !author.protected;
    if (!visible) throw new PlatformError(401, 179, 'Sorry, you are not authorized to see this status.', {}, 'protected account not followed');
    const posts = [...state.posts.values()].filter((p) => p.authorId === author.id);
    await answer(res, 200, page(res, posts).map((p) => postObject(state, p, me?.id, tweetMode(res))));
  });
}

/** The posts. */
function postRoutes({ router, ctx, state, user, v }: ActionRouteKit): void {
  router.post(v('statuses/update.json'), user, async (_req, res) => {
    const me = actingUser(res);
    const status = text(res, 'status', 280);
    if (status.trim() === '') throw new PlatformError(400, 170, 'Missing required parameter: status.');
    const { value: post, announce } = createPost(ctx, me, status, param(res, 'in_reply_to_status_id'));
    await answer(res, 200, postObject(state, post, me.id, tweetMode(res)));
    announce();
  });
  router.post(v('statuses/destroy/:id.json'), user, async (req, res) => {
    const me = actingUser(res);
    const { value: post, announce } = deletePost(ctx, me, postById(state, pathId(req)));
    await answer(res, 200, postObject(state, post, me.id, tweetMode(res)));
    announce();
  });
  router.post(v('statuses/retweet/:id.json'), user, async (req, res) => {
    const me = actingUser(res);
    const { value: post, announce } = repost(ctx, me, postById(state, pathId(req)));
    await answer(res, 200, postObject(state, post, me.id, tweetMode(res)));
    announce();
  });
  router.post(v('favorites/create.json'), user, async (_req, res) => {
    const me = actingUser(res);
    const { value: post, announce } = like(ctx, me, postById(state, idParam(res, 'id')));
    await answer(res, 200, postObject(state, post, me.id, tweetMode(res)));
    announce();
  });
  router.post(v('favorites/destroy.json'), user, async (_req, res) => {
    const me = actingUser(res);
    const post = postById(state, idParam(res, 'id'));
    if (!state.setOf(state.likes, me.id).delete(post.id)) throw Errors.noStatus();
    await answer(res, 200, postObject(state, post, me.id, tweetMode(res)));
  });
}

/** The followed accounts, mutes, blocks, reports. */
function relationRoutes({ router, ctx, state, user, v }: ActionRouteKit): void {
  router.get(v('friends/list.json'), user, async (_req, res) => {
    const me = actingUser(res);
    const count = countParam(res, 20, 200);
    const cursor = Number(param(res, 'cursor') ?? '-1');
    const start = cursor > 0 ? cursor : 0;
    const ids = [...state.setOf(state.following, me.id)];
    const users = ids.slice(start, start + count).map((id) => userObject(state.user({ id })));
    const next = start + count < ids.length ? start + count : 0;
    await answer(res, 200, { users, next_cursor: next, next_cursor_str: String(next), previous_cursor: 0, previous_cursor_str: '0' });
  });

  const relation = (path: string, kind: RelationKind, add: boolean) =>
    router.post(v(path), user, async (_req, res) => {
      const { value: target, announce } = relate(ctx, kind, actingUser(res), targetUser(state, res), add);
      await answer(res, 200, userObject(target));
      announce();
    });
  relation('friendships/create.json', 'follow_events', true);
  relation('friendships/destroy.json', 'follow_events', false);
  relation('mutes/users/create.json', 'mute_events', true);
  relation('mutes/users/destroy.json', 'mute_events', false);
  relation('blocks/create.json', 'block_events', true);
  relation('blocks/destroy.json', 'block_events', false);
  router.post(v('users/report_spam.json'), user, async (_req, res) => {
    const me = actingUser(res);
    const target = targetUser(state, res);
    const blocked = boolParam(res, 'perform_block', true) ? relate(ctx, 'block_events', me, target, true) : undefined;
    await answer(res, 200, userObject(target));
    blocked?.announce();
  });
}

/** The list named by `list_id`, or by `slug` with `owner_screen_name` or `owner_id` (v1.1's two ways). */
function namedList(state: PlatformState, res: Response): List {
  if (param(res, 'list_id') !== undefined) return listById(state, res);
  const slug = param(res, 'slug');
  if (!slug) throw new PlatformError(400, 38, 'list_id or slug parameter is missing.');
  const ownerId = param(res, 'owner_id');
  const ownerName = param(res, 'owner_screen_name');
  if (!ownerId && !ownerName) throw new PlatformError(400, 38, 'owner_id or owner_screen_name parameter is missing.');
  const owner = ownerId ? state.user({ id: ownerId }) : state.user({ screenName: ownerName! });
  const list = [...state.lists.values()].find((l) => l.ownerId === owner.id && listObject(state, l, owner.id).slug === slug.toLowerCase());
  if (!list) throw Errors.notFound();
  return list;
}

/**
 * Cursor paging as v1.1 does it: `cursor=-1` (or none) is the first page; each answer names
 * `next_cursor` (0 after the last page) and `previous_cursor` (0 on the first), a negative
 * cursor going back. The cursors here are offsets into the collection.
 */
function cursorPage<T>(res: Response, items: T[], fallback: number, max: number): { items: T[]; cursors: Record<string, unknown> } {
  const count = countParam(res, fallback, max);
  const raw = param(res, 'cursor') ?? '-1';
  if (!/^-?[0-9]{1,19}$/.test(raw)) throw Errors.invalidParameter('cursor');
  const cursor = Number(raw);
  const start = cursor === -1 ? 0 : cursor < 0 ? Math.max(0, -cursor - count) : Math.min(cursor, items.length);
  const next = start + count < items.length ? start + count : 0;
  const previous = start > 0 ? -start : 0;
  return {
    items: items.slice(start, start + count),
    cursors: { next_cursor: next, next_cursor_str: String(next), previous_cursor: previous, previous_cursor_str: String(previous) },
  };
}

/** A list's members (user context or app-only; a private list only for its owner), in the order they were added, paged by cursor. */
function listMemberRoutes({ router, state, userOrApp, v }: ActionRouteKit): void {
  router.get(v('lists/members.json'), userOrApp, async (_req, res) => {
    const list = namedList(state, res);
    if (list.mode === 'private' && list.ownerId !== viewerOf(res)?.id) throw Errors.notFound();
    const { items, cursors } = cursorPage(res, [...list.members], 20, 5000);
    await answer(res, 200, { users: items.map((id) => userObject(state.user({ id }))), ...cursors });
  });
}

/** The lists. */
function listRoutes({ router, state, user, v }: ActionRouteKit): void {
  router.get(v('lists/list.json'), user, async (_req, res) => {
    const me = actingUser(res);
    const lists = [...state.lists.values()].filter((l) => l.ownerId === me.id || l.subscribers.has(me.id));
    await answer(res, 200, lists.map((l) => listObject(state, l, me.id)));
  });
  router.get(v('lists/subscriptions.json'), user, async (_req, res) => {
    const me = actingUser(res);
    const lists = [...state.lists.values()].filter((l) => l.subscribers.has(me.id)).slice(0, countParam(res, 20, 1000));
    await answer(res, 200, { lists: lists.map((l) => listObject(state, l, me.id)), next_cursor: 0, next_cursor_str: '0', previous_cursor: 0, previous_cursor_str: '0' });
  });
  router.get(v('lists/statuses.json'), user, async (_req, res) => {
    const me = actingUser(res);
    const list = listById(state, res);
    if (list.mode === 'private' && list.ownerId !== me.id) throw Errors.notFound();
    const posts = [...state.posts.values()].filter((p) => list.members.has(p.authorId) && state.canSee(me.id, p.authorId));
    await answer(res, 200, page(res, posts).map((p) => postObject(state, p, me.id, tweetMode(res))));
  });
  const listMode = (res: Response): List['mode'] | undefined => {
    const mode = param(res, 'mode');
    if (mode !== undefined && mode !== 'public' && mode !== 'private') throw Errors.invalidParameter('mode');
    return mode;
  };
  router.post(v('lists/create.json'), user, async (_req, res) => {
    const me = actingUser(res);
    const list = createList(state, me, { name: text(res, 'name', 25), mode: listMode(res), description: param(res, 'description') });
    await answer(res, 200, listObject(state, list, me.id));
  });
  router.post(v('lists/update.json'), user, async (_req, res) => {
    const me = actingUser(res);
    const list = updateList(listById(state, res, me), { name: param(res, 'name'), description: param(res, 'description'), mode: listMode(res) });
    await answer(res, 200, listObject(state, list, me.id));
  });
  router.post(v('lists/destroy.json'), user, async (_req, res) => {
    const me = actingUser(res);
    const list = deleteList(state, listById(state, res, me));
    await answer(res, 200, listObject(state, list, me.id));
  });
  for (const [path, add] of [['lists/members/create.json', true], ['lists/members/destroy.json', false]] as const) {
    router.post(v(path), user, async (_req, res) => {
      const me = actingUser(res);
      const list = setListMember(listById(state, res, me), targetUser(state, res), add);
      await answer(res, 200, listObject(state, list, me.id));
    });
  }
}

/** The collections. */
function collectionRoutes({ router, state, user, v }: ActionRouteKit): void {
  router.get(v('collections/list.json'), user, async (_req, res) => {
    const me = actingUser(res);
    const owner = targetUser(state, res, me);
    const collections = [...state.collections.values()].filter((c) => c.ownerId === owner.id).slice(0, countParam(res, 200, 200));
    await answer(res, 200, collectionsListAnswer(state, collections));
  });
  router.get(v('collections/entries.json'), user, async (_req, res) => {
    const me = actingUser(res);
    await answer(res, 200, collectionEntriesAnswer(state, collectionById(state, res), me.id, countParam(res, 200, 200)));
  });
  router.post(v('collections/create.json'), user, async (_req, res) => {
    const me = actingUser(res);
    const name = text(res, 'name', 25);
    const order = param(res, 'timeline_order') ?? 'curation_reverse_chron';
    if (!['curation_reverse_chron', 'tweet_chron', 'tweet_reverse_chron'].includes(order)) throw Errors.invalidParameter('timeline_order');
    const collection: Collection = { id: `custom-${nextEventId()}`, ownerId: me.id, name, description: param(res, 'description') ?? '', timelineOrder: order, entries: [] };
    state.collections.set(collection.id, collection);
    await answer(res, 200, collectionAnswer(state, collection));
  });
  router.post(v('collections/update.json'), user, async (_req, res) => {
    const collection = collectionById(state, res, actingUser(res));
    collection.name = param(res, 'name') ?? collection.name;
    collection.description = param(res, 'description') ?? collection.description;
    await answer(res, 200, collectionAnswer(state, collection));
  });
  router.post(v('collections/destroy.json'), user, async (_req, res) => {
    const collection = collectionById(state, res, actingUser(res));
    state.collections.delete(collection.id);
    await answer(res, 200, { destroyed: true });
  });
  for (const [path, add] of [['collections/entries/add.json', true], ['collections/entries/remove.json', false]] as const) {
    router.post(v(path), user, async (_req, res) => {
      const collection = collectionById(state, res, actingUser(res));
      const postId = idParam(res, 'tweet_id');
      const errors: { tweet_id: string; reason: string }[] = [];
      if (add) {
        if (!state.posts.has(postId)) errors.push({ tweet_id: postId, reason: 'tweet_not_found' });
        else if (!collection.entries.includes(postId)) collection.entries.unshift(postId);
      } else {
        collection.entries = collection.entries.filter((id) => id !== postId);
      }
      await answer(res, 200, { objects: {}, response: { errors } });
    });
  }
}

/** The direct messages. */
function directMessageRoutes({ router, ctx, state, user, v }: ActionRouteKit): void {
  router.post(v('direct_messages/events/new.json'), user, async (req, res) => {
    const me = actingUser(res);
    const event = (req.body as { event?: { type?: unknown; message_create?: { target?: { recipient_id?: unknown }; message_data?: { text?: unknown } } } } | undefined)?.event;
    const recipientId = event?.message_create?.target?.recipient_id;
    const body = event?.message_create?.message_data?.text;
    if (event?.type !== 'message_create' || typeof recipientId !== 'string' || !ID.test(recipientId)) {
      throw new PlatformError(400, 214, 'event.message_create.target.recipient_id: invalid or missing');
    }
    if (typeof body !== 'string' || body.trim() === '' || [...body].length > 10_000) throw new PlatformError(400, 214, 'event.message_create.message_data.text: must be 1 to 10000 characters');
    const { value: dm, announce } = sendDirectMessage(ctx, me, state.user({ id: recipientId }), body);
    await answer(res, 200, { event: directMessageEvent(dm) });
    announce();
  });
  const visibleDms = (me: UserRecord) => [...state.directMessages.values()].filter((dm) => (dm.senderId === me.id || dm.recipientId === me.id) && !dm.hiddenFor.has(me.id));
  router.get(v('direct_messages/events/list.json'), user, async (_req, res) => {
    const me = actingUser(res);
    const count = countParam(res, 20, 50);
    const all = visibleDms(me).sort((a, b) => b.createdAt - a.createdAt || (BigInt(b.id) > BigInt(a.id) ? 1 : -1));
    const cursor = param(res, 'cursor');
    const start = cursor ? Math.max(0, all.findIndex((dm) => dm.id === cursor)) : 0;
    const shown = all.slice(start, start + count);
    const next = all[start + count];
    await answer(res, 200, { events: shown.map(directMessageEvent), ...(next ? { next_cursor: next.id } : {}) });
  });
  const dmById = (me: UserRecord, id: string) => {
    const dm = visibleDms(me).find((d) => d.id === id);
    if (!dm) throw new PlatformError(404, 34, 'Sorry, that page does not exist.', {}, 'no such DM visible to the account');
    return dm;
  };
  router.get(v('direct_messages/events/show.json'), user, async (_req, res) => {
    await answer(res, 200, { event: directMessageEvent(dmById(actingUser(res), idParam(res, 'id'))) });
  });
  router.delete(v('direct_messages/events/destroy.json'), user, async (_req, res) => {
    const me = actingUser(res);
    dmById(me, idParam(res, 'id')).hiddenFor.add(me.id);
    await answer(res, 204);
  });
  router.post(v('direct_messages/mark_read.json'), user, async (_req, res) => {
    const me = actingUser(res);
    const other = idParam(res, 'recipient_id');
    const dm = dmById(me, idParam(res, 'last_read_event_id'));
    if (dm.senderId !== other && dm.recipientId !== other) throw Errors.invalidParameter('last_read_event_id');
    await answer(res, 204);
  });
  router.post(v('direct_messages/indicate_typing.json'), user, async (_req, res) => {
    idParam(res, 'recipient_id');
    await answer(res, 204);
  });
  undoAndIdRoutes(router, ctx);
}

/** The v1.1 REST routes a connected account acts through (user context). */
export function actionRoutes(router: Router, ctx: PlatformContext): void {
  const kit: ActionRouteKit = { router, ctx, state: ctx.state, user: authenticate(ctx, 'user'), userOrApp: authenticate(ctx, 'user-or-app'), v: (path) => `/1.1/${path}` };
  profileRoutes(kit);
  timelineRoutes(kit);
  postRoutes(kit);
  relationRoutes(kit);
  listRoutes(kit);
  listMemberRoutes(kit);
  collectionRoutes(kit);
  directMessageRoutes(kit);
}

/** Taking a repost back, and the ids of followed accounts (routes clients such as twitter-api-v2 and tweepy call). */
function undoAndIdRoutes(router: Router, ctx: PlatformContext): void {
  const { state, activity } = ctx;
  const user = authenticate(ctx, 'user');
  // Answers the original post, as the platform does; the repost's removal is delivered as a delete.
  router.post('/1.1/statuses/unretweet/:id.json', user, async (req, res) => {
    const me = actingUser(res);
    const original = postById(state, pathId(req));
    const repost = [...state.posts.values()].find((p) => p.repostOf === original.id && p.authorId === me.id);
    if (repost) state.posts.delete(repost.id);
    await answer(res, 200, postObject(state, original, me.id, tweetMode(res)));
    if (repost) activity.deliver(me.id, postDeleted({ account: me.id, postId: repost.id, author: me.id }));
  });
  // Ids are numbers unless stringify_ids=true (they can exceed what a JSON number holds exactly).
  router.get('/1.1/friends/ids.json', user, async (_req, res) => {
    const me = actingUser(res);
    const count = countParam(res, 5000, 5000);
    const cursor = Number(param(res, 'cursor') ?? '-1');
    const start = cursor > 0 ? cursor : 0;
    const all = [...state.setOf(state.following, me.id)];
    const ids = all.slice(start, start + count).map((id) => (boolParam(res, 'stringify_ids', false) ? id : jsonInteger(id)));
    const next = start + count < all.length ? start + count : 0;
    await answer(res, 200, { ids, next_cursor: next, next_cursor_str: String(next), previous_cursor: 0, previous_cursor_str: '0' });
  });
}

function pathId(req: Request): string {
  const id = String(req.params.id);
  if (!ID.test(id)) throw Errors.noStatus();
  return id;
}
