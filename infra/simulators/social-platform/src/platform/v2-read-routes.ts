import type { Request, Response, Router } from 'express';
import { actingUser, answer, authenticate, param, requireScopes } from './authn';
import type { PlatformContext } from './context';
import { PlatformError } from './errors';
import type { List, Post, UserRecord } from './state';
import { byId, byOffset, Includes, listAnswer, maxResults, newestFirst, resourceProblem, tokenPage, v2DmEvent, v2List, v2Post, v2User, wantedBy } from './v2-objects';

const ID = /^[0-9]{1,19}$/;
const USERNAME = /^[A-Za-z0-9_]{1,15}$/;

const invalid = (detail: string) => new PlatformError(400, 0, detail);

/** A path parameter that must be an id (400 otherwise, as the platform checks its pattern). */
function pathId(req: Request, name: string): string {
  const value = String(req.params[name]);
  if (!ID.test(value)) throw invalid(`The \`${name}\` query parameter value [${value}] does not match ^[0-9]{1,19}$`);
  return value;
}

/** `since_id` / `until_id`: posts after the one, before the other (both exclusive). */
function idWindow(res: Response): (post: Post) => boolean {
  const [since, until] = ['since_id', 'until_id'].map((name) => {
    const value = param(res, name);
    if (value === undefined) return null;
    if (!ID.test(value)) throw invalid(`The \`${name}\` query parameter value [${value}] does not match ^[0-9]{1,19}$`);
    return BigInt(value);
  });
  return (post) => (since === null || BigInt(post.id) > since!) && (until === null || BigInt(post.id) < until!);
}

/**
 * A timeline's answer: a page of `posts` (newest first) with the expansions asked for, and
 * `meta` with `newest_id`, `oldest_id` and `next_token` when there is more.
 */
export function timelineAnswer(ctx: PlatformContext, res: Response, posts: Post[], size: number, tokenName = 'pagination_token'): Record<string, unknown> {
  const wanted = wantedBy(res);
  const sorted = posts.filter(idWindow(res)).sort(newestFirst);
  const { shown, nextToken } = tokenPage(res, sorted, size, byId(sorted), tokenName);
  const includes = new Includes(ctx.state, wanted);
  for (const post of shown) includes.post(post);
  const meta = shown.length ? { newest_id: shown[0]!.id, oldest_id: shown[shown.length - 1]!.id, ...(nextToken ? { next_token: nextToken } : {}) } : {};
  return listAnswer(
    shown.map((post) => v2Post(ctx.state, post, wanted.tweet)),
    meta,
    includes,
  );
}

/** The acting user, who must be the `:id` of the path (routes on the acting user's own timeline). */
function pathUser(req: Request, res: Response): UserRecord {
  const me = actingUser(res);
  if (pathId(req, 'id') !== me.id) throw new PlatformError(403, 0, 'You are not permitted to act for another user.');
  return me;
}

function userRoutes(router: Router, ctx: PlatformContext): void {
  const { state } = ctx;
  const user = authenticate(ctx, 'user');
  router.get('/2/users/me', user, async (_req, res) => {
    requireScopes(res, 'users.read');
    await answer(res, 200, { data: v2User(actingUser(res), wantedBy(res).user) });
  });
  // As the v1.1 routes do for a screen name, a user never seen before is made up (stably); a name
  // no account can have is not found.
  router.get('/2/users/by/username/:username', user, async (req, res) => {
    requireScopes(res, 'users.read', 'tweet.read');
    const username = String(req.params.username);
    // The document's path pattern: a name no account can have is a bad request, not a missing user.
    if (!USERNAME.test(username)) throw invalid(`The \`username\` query parameter value [${username}] does not match ^[A-Za-z0-9_]{1,15}$`);
    await answer(res, 200, { data: v2User(state.user({ screenName: username }), wantedBy(res).user) });
  });
  router.get('/2/users/:id', user, async (req, res) => {
    requireScopes(res, 'users.read', 'tweet.read');
    await answer(res, 200, { data: v2User(state.user({ id: pathId(req, 'id') }), wantedBy(res).user) });
  });
  router.get('/2/users/:id/following', user, async (req, res) => {
    requireScopes(res, 'follows.read', 'users.read', 'tweet.read');
    const of = state.user({ id: pathId(req, 'id') });
    if (!state.canSee(actingUser(res).id, of.id)) {
      await answer(res, 200, resourceProblem('not-authorized', 'user', 'id', of.id));
      return;
    }
    const ids = [...state.setOf(state.following, of.id)];
    const { shown, nextToken } = tokenPage(res, ids, maxResults(res, 1, 1000, 100), byOffset);
    await answer(
      res,
      200,
      listAnswer(
        shown.map((id) => v2User(state.user({ id }), wantedBy(res).user)),
        nextToken ? { next_token: nextToken } : {},
      ),
    );
  });
}

function timelineRoutes(router: Router, ctx: PlatformContext): void {
  const { state } = ctx;
  const user = authenticate(ctx, 'user');
  router.get('/2/users/:id/tweets', user, async (req, res) => {
    requireScopes(res, 'tweet.read', 'users.read');
    const authorId = pathId(req, 'id');
    const size = maxResults(res, 5, 100, 10);
    if (!state.canSee(actingUser(res).id, authorId)) {
      await answer(res, 200, resourceProblem('not-authorized', 'user', 'id', authorId));
      return;
    }
    await answer(res, 200, timelineAnswer(ctx, res, [...state.posts.values()].filter((p) => p.authorId === authorId), size));
  });
  router.get('/2/users/:id/timelines/reverse_chronological', user, async (req, res) => {
    requireScopes(res, 'tweet.read', 'users.read');
    const me = pathUser(req, res);
    const size = maxResults(res, 1, 100, 100);
    const followed = state.setOf(state.following, me.id);
    const posts = [...state.posts.values()].filter((p) => (p.authorId === me.id || followed.has(p.authorId)) && state.canSee(me.id, p.authorId));
    await answer(res, 200, timelineAnswer(ctx, res, posts, size));
  });
}

function listRoutes(router: Router, ctx: PlatformContext): void {
  const { state } = ctx;
  const user = authenticate(ctx, 'user');
  /** A page of the lists `which` picks for the user in the path; another user's private lists are not shown. */
  const userLists = (which: (list: List, userId: string) => boolean) => async (req: Request, res: Response) => {
    requireScopes(res, 'list.read', 'users.read', 'tweet.read');
    const userId = pathId(req, 'id');
    const me = actingUser(res);
    const wanted = wantedBy(res);
    const lists = [...state.lists.values()].filter((l) => which(l, userId) && (l.mode === 'public' || l.ownerId === me.id)).sort(newestFirst);
    const { shown, nextToken } = tokenPage(res, lists, maxResults(res, 1, 100, 100), byOffset);
    const includes = new Includes(state, wanted);
    if (wanted.expansions.has('owner_id')) for (const list of shown) includes.user(list.ownerId);
    await answer(res, 200, listAnswer(shown.map((l) => v2List(l, wanted.list)), nextToken ? { next_token: nextToken } : {}, includes));
  };
  router.get('/2/users/:id/owned_lists', user, userLists((list, userId) => list.ownerId === userId));
  // The lists a user follows (v1.1's subscriptions).
  router.get('/2/users/:id/followed_lists', user, userLists((list, userId) => list.subscribers.has(userId)));
  router.get('/2/lists/:id/tweets', user, async (req, res) => {
    requireScopes(res, 'list.read', 'tweet.read', 'users.read');
    const me = actingUser(res);
    const id = pathId(req, 'id');
    const size = maxResults(res, 1, 100, 100);
    const list = state.lists.get(id);
    if (!list || (list.mode === 'private' && list.ownerId !== me.id)) {
      await answer(res, 200, resourceProblem('not-found', 'list', 'id', id));
      return;
    }
    const posts = [...state.posts.values()].filter((p) => list.members.has(p.authorId) && state.canSee(me.id, p.authorId));
    await answer(res, 200, timelineAnswer(ctx, res, posts, size));
  });
}

const EVENT_TYPES = ['MessageCreate', 'ParticipantsJoin', 'ParticipantsLeave'];

function dmRoutes(router: Router, ctx: PlatformContext): void {
  const { state } = ctx;
  const user = authenticate(ctx, 'user');
  const visible = (me: UserRecord) => [...state.directMessages.values()].filter((dm) => (dm.senderId === me.id || dm.recipientId === me.id) && !dm.hiddenFor.has(me.id));
  /** DM events with the users `expansions=sender_id` names. */
  const includesOf = (res: Response, senders: string[]) => {
    const includes = new Includes(state, wantedBy(res));
    if (wantedBy(res).expansions.has('sender_id')) for (const id of senders) includes.user(id);
    return includes;
  };
  router.get('/2/dm_events', user, async (_req, res) => {
    requireScopes(res, 'dm.read', 'tweet.read', 'users.read');
    const me = actingUser(res);
    const types = param(res, 'event_types');
    if (types !== undefined && !EVENT_TYPES.includes(types)) throw invalid(`The \`event_types\` query parameter value [${types}] is not one of [${EVENT_TYPES.join(', ')}]`);
    const size = maxResults(res, 1, 100, 100);
    // Every event the simulator keeps is a one-to-one MessageCreate.
    const events = types === undefined || types === 'MessageCreate' ? visible(me).sort(newestFirst) : [];
    const { shown, nextToken } = tokenPage(res, events, size, byId(events));
    const wanted = wantedBy(res).dmEvent;
    await answer(
      res,
      200,
      listAnswer(
        shown.map((dm) => v2DmEvent(dm, wanted)),
        nextToken ? { next_token: nextToken } : {},
        includesOf(
          res,
          shown.map((dm) => dm.senderId),
        ),
      ),
    );
  });
  // Deletes a DM event the caller sent (the platform: "if owned by the authenticated user").
  router.delete('/2/dm_events/:event_id', user, async (req, res) => {
    requireScopes(res, 'dm.read', 'dm.write');
    const me = actingUser(res);
    const id = pathId(req, 'event_id');
    const dm = visible(me).find((d) => d.id === id);
    if (!dm) throw new PlatformError(404, 0, `Could not find DM event with id: [${id}].`, {}, 'no such DM visible to the caller');
    if (dm.senderId !== me.id) throw new PlatformError(403, 0, 'You are not allowed to delete this DM event: the authenticated user did not send it.', {}, 'not the sender');
    state.directMessages.delete(id);
    await answer(res, 200, { data: { deleted: true } });
  });
  router.get('/2/dm_events/:event_id', user, async (req, res) => {
    requireScopes(res, 'dm.read', 'tweet.read', 'users.read');
    const id = pathId(req, 'event_id');
    const dm = visible(actingUser(res)).find((d) => d.id === id);
    if (!dm) {
      await answer(res, 200, resourceProblem('not-found', 'dm_event', 'event_id', id));
      return;
    }
    await answer(res, 200, { data: v2DmEvent(dm, wantedBy(res).dmEvent), ...includesOf(res, [dm.senderId]).answerPart() });
  });
}

/**
 * The v2 read routes (OAuth 2.0 user tokens, with scopes, or OAuth 1.0a user context): users,
 * timelines, followed accounts, lists, DM events. Answers are `{data, includes, meta:
 * {result_count, next_token, ...}}`; `data` is left out when there is nothing; what the platform
 * cannot find or show is 200 with the problem in `errors`. Recent search is in search-routes.ts.
 */
export function v2ReadRoutes(router: Router, ctx: PlatformContext): void {
  userRoutes(router, ctx);
  timelineRoutes(router, ctx);
  listRoutes(router, ctx);
  dmRoutes(router, ctx);
}
