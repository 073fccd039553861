import type { Request, Response, Router } from 'express';
import { actingUser, answer, authenticate, requireScopes } from './authn';
import type { PlatformContext } from './context';
import { createList, createPost, deleteList, deletePost, like, ownedList, relate, repost, sendDirectMessage, setListMember, updateList, type ListFields } from './effects';
import { PlatformError } from './errors';
import { attachableMedia } from './media-routes';
import type { UserRecord } from './state';
import { conversationId } from './v2-objects';
import type { RelationKind } from '../activity-deliveries';

const ID = /^[0-9]{1,20}$/;
const WINDOW_MS = 15 * 60_000;

const invalid = (detail: string) => new PlatformError(400, 0, detail);

function bodyOf(req: Request): Record<string, unknown> {
  const body = req.body as unknown;
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}

function idIn(value: unknown, name: string): string {
  if (typeof value !== 'string' || !ID.test(value)) throw invalid(`${name} must be a numeric id given as a string`);
  return value;
}

/** The acting user, who must be the `:id` of the path (v2 user routes name the acting user). */
function pathUser(req: Request, res: Response, name = 'id'): UserRecord {
  const me = actingUser(res);
  if (String(req.params[name]) !== me.id) throw new PlatformError(403, 0, 'You are not permitted to act for another user.');
  return me;
}

/** The per-user DM write quota: at most `limit` sends in any 15 minutes, then 429 with the reset time. */
class DmQuota {
  private readonly sent = new Map<string, number[]>();

  constructor(private readonly limit: number) {}

  take(userId: string): Record<string, string> {
    const now = Date.now();
    const recent = (this.sent.get(userId) ?? []).filter((at) => at > now - WINDOW_MS);
    const reset = String(Math.ceil(((recent[0] ?? now) + WINDOW_MS) / 1000));
    if (recent.length >= this.limit) {
      throw new PlatformError(429, 88, 'Too Many Requests', { 'x-rate-limit-limit': String(this.limit), 'x-rate-limit-remaining': '0', 'x-rate-limit-reset': reset }, 'per-user DM write quota');
    }
    recent.push(now);
    this.sent.set(userId, recent);
    return { 'x-rate-limit-limit': String(this.limit), 'x-rate-limit-remaining': String(this.limit - recent.length), 'x-rate-limit-reset': reset };
  }
}

function postRoutes(router: Router, ctx: PlatformContext): void {
  const { state } = ctx;
  const user = authenticate(ctx, 'user');
  const postOf = (id: string) => {
    const post = state.posts.get(id);
    if (!post) throw new PlatformError(404, 0, 'Could not find tweet.');
    return post;
  };
  router.post('/2/tweets', user, async (req, res) => {
    requireScopes(res, 'tweet.read', 'tweet.write', 'users.read');
    const body = bodyOf(req);
    if (typeof body.text !== 'string' || body.text.trim() === '' || [...body.text].length > 280) throw invalid('text must be 1 to 280 characters');
    const replyTo = (body.reply as { in_reply_to_tweet_id?: unknown } | undefined)?.in_reply_to_tweet_id;
    const { value: post, announce } = createPost(ctx, actingUser(res), body.text, replyTo === undefined ? undefined : idIn(replyTo, 'reply.in_reply_to_tweet_id'));
    await answer(res, 201, { data: { id: post.id, text: post.text, edit_history_tweet_ids: [post.id] } });
    announce();
  });
  router.delete('/2/tweets/:id', user, async (req, res) => {
    requireScopes(res, 'tweet.write');
    const { announce } = deletePost(ctx, actingUser(res), postOf(idIn(req.params.id, 'id')));
    await answer(res, 200, { data: { deleted: true } });
    announce();
  });
  router.post('/2/users/:id/likes', user, async (req, res) => {
    requireScopes(res, 'like.write');
    const { announce } = like(ctx, pathUser(req, res), postOf(idIn(bodyOf(req).tweet_id, 'tweet_id')));
    await answer(res, 200, { data: { liked: true } });
    announce();
  });
  router.delete('/2/users/:id/likes/:tweetId', user, async (req, res) => {
    requireScopes(res, 'like.write');
    state.setOf(state.likes, pathUser(req, res).id).delete(String(req.params.tweetId));
    await answer(res, 200, { data: { liked: false } });
  });
  router.post('/2/users/:id/retweets', user, async (req, res) => {
    requireScopes(res, 'tweet.write');
    const { value: made, announce } = repost(ctx, pathUser(req, res), postOf(idIn(bodyOf(req).tweet_id, 'tweet_id')));
    await answer(res, 200, { data: { retweeted: true, rest_id: made.id } }); // the repost's own id is `rest_id`
    announce();
  });
  router.delete('/2/users/:id/retweets/:sourceId', user, async (req, res) => {
    requireScopes(res, 'tweet.write');
    const me = pathUser(req, res);
    const mine = [...state.posts.values()].find((p) => p.repostOf === String(req.params.sourceId) && p.authorId === me.id);
    if (mine) state.posts.delete(mine.id);
    await answer(res, 200, { data: { retweeted: false } });
  });
}

const RELATIONS: { path: string; kind: RelationKind; field: string; scope: string }[] = [
  { path: 'following', kind: 'follow_events', field: 'following', scope: 'follows.write' },
  { path: 'blocking', kind: 'block_events', field: 'blocking', scope: 'block.write' },
  { path: 'muting', kind: 'mute_events', field: 'muting', scope: 'mute.write' },
];

function relationRoutes(router: Router, ctx: PlatformContext): void {
  const user = authenticate(ctx, 'user');
  for (const { path, kind, field, scope } of RELATIONS) {
    router.post(`/2/users/:id/${path}`, user, async (req, res) => {
      requireScopes(res, scope);
      const target = ctx.state.user({ id: idIn(bodyOf(req).target_user_id, 'target_user_id') });
      const { announce } = relate(ctx, kind, pathUser(req, res), target, true);
      await answer(res, 200, { data: { [field]: true, ...(kind === 'follow_events' ? { pending_follow: false } : {}) } });
      announce();
    });
    router.delete(`/2/users/:id/${path}/:targetId`, user, async (req, res) => {
      requireScopes(res, scope);
      const target = ctx.state.user({ id: idIn(req.params.targetId, 'target_user_id') });
      const { announce } = relate(ctx, kind, pathUser(req, res), target, false);
      await answer(res, 200, { data: { [field]: false } });
      announce();
    });
  }
}

/** A DM's text and attached media: at least one of them; one attachment at most, the sender's own upload. */
function dmBody(ctx: PlatformContext, me: UserRecord, body: Record<string, unknown>): { text: string; mediaId?: string } {
  const { text, attachments } = body;
  if (attachments !== undefined && (!Array.isArray(attachments) || attachments.length !== 1)) throw invalid('attachments must hold exactly one media');
  const mediaId = attachments ? idIn((attachments[0] as { media_id?: unknown } | null)?.media_id, 'attachments[0].media_id') : undefined;
  if (mediaId === undefined || text !== undefined) {
    if (typeof text !== 'string' || text.trim() === '' || [...text].length > 10_000) throw invalid('text must be 1 to 10000 characters');
  }
  if (mediaId !== undefined) attachableMedia(ctx.state, me, mediaId);
  return { text: typeof text === 'string' ? text : '', mediaId };
}

function dmRoutes(router: Router, ctx: PlatformContext): void {
  const { state, config } = ctx;
  const user = authenticate(ctx, 'user');
  const quota = new DmQuota(config.DM_WRITE_LIMIT_PER_15_MINUTES);
  const send = async (req: Request, res: Response, recipientId: string) => {
    requireScopes(res, 'dm.write', 'dm.read');
    const me = actingUser(res);
    const recipient = state.user({ id: recipientId });
    const { text, mediaId } = dmBody(ctx, me, bodyOf(req));
    res.set(quota.take(me.id));
    const { value: dm, announce } = sendDirectMessage(ctx, me, recipient, text, mediaId);
    await answer(res, 201, { data: { dm_conversation_id: conversationId(dm), dm_event_id: dm.id } });
    announce();
  };
  router.post('/2/dm_conversations/with/:participantId/messages', user, (req, res) => send(req, res, idIn(req.params.participantId, 'participant_id')));
  // A one-to-one conversation is named by its two users (`<lower id>-<higher id>`); the caller must be one of them.
  router.post('/2/dm_conversations/:conversationId/messages', user, (req, res) => {
    const users = String(req.params.conversationId).split('-');
    const me = actingUser(res).id;
    if (users.length !== 2 || !users.every((id) => ID.test(id)) || !users.includes(me)) throw new PlatformError(404, 0, `Could not find DM conversation with id: [${String(req.params.conversationId)}].`, {}, 'not a conversation of the caller');
    return send(req, res, users[0] === me ? users[1]! : users[0]!);
  });
}

/** A v2 list's settings from a JSON body: `private` (a boolean) where v1.1 has `mode`. */
function listFields(body: Record<string, unknown>, nameRequired: boolean): ListFields {
  const { name, description } = body;
  if (name !== undefined || nameRequired) {
    if (typeof name !== 'string' || name.trim() === '' || [...name].length > 25) throw invalid('name must be 1 to 25 characters');
  }
  if (description !== undefined && (typeof description !== 'string' || [...description].length > 100)) throw invalid('description must be at most 100 characters');
  if (body.private !== undefined && typeof body.private !== 'boolean') throw invalid('private must be a boolean');
  return { name: name as string | undefined, description: description as string | undefined, mode: body.private === undefined ? undefined : body.private ? 'private' : 'public' };
}

function listRoutes(router: Router, ctx: PlatformContext): void {
  const { state } = ctx;
  const user = authenticate(ctx, 'user');
  router.post('/2/lists', user, async (req, res) => {
    requireScopes(res, 'list.write', 'tweet.read', 'users.read');
    const list = createList(state, actingUser(res), listFields(bodyOf(req), true) as ListFields & { name: string });
    await answer(res, 201, { data: { id: list.id, name: list.name } });
  });
  router.put('/2/lists/:id', user, async (req, res) => {
    requireScopes(res, 'list.write', 'tweet.read', 'users.read');
    const list = ownedList(state, actingUser(res), idIn(req.params.id, 'id'));
    updateList(list, listFields(bodyOf(req), false));
    await answer(res, 200, { data: { updated: true } });
  });
  router.delete('/2/lists/:id', user, async (req, res) => {
    requireScopes(res, 'list.write', 'tweet.read', 'users.read');
    deleteList(state, ownedList(state, actingUser(res), idIn(req.params.id, 'id')));
    await answer(res, 200, { data: { deleted: true } });
  });
  router.post('/2/lists/:id/members', user, async (req, res) => {
    requireScopes(res, 'list.write', 'tweet.read', 'users.read');
    const list = ownedList(state, actingUser(res), idIn(req.params.id, 'id'));
    setListMember(list, state.user({ id: idIn(bodyOf(req).user_id, 'user_id') }), true);
    await answer(res, 200, { data: { is_member: true } });
  });
  // Following a list (v1.1's subscribing): another user's private list cannot be followed.
  router.post('/2/users/:id/followed_lists', user, async (req, res) => {
    requireScopes(res, 'list.write', 'tweet.read', 'users.read');
    const me = pathUser(req, res);
    const list = state.lists.get(idIn(bodyOf(req).list_id, 'list_id'));
    if (!list || (list.mode === 'private' && list.ownerId !== me.id)) throw new PlatformError(404, 0, 'Could not find list.');
    list.subscribers.add(me.id);
    await answer(res, 200, { data: { following: true } });
  });
  router.delete('/2/users/:id/followed_lists/:listId', user, async (req, res) => {
    requireScopes(res, 'list.write', 'tweet.read', 'users.read');
    const me = pathUser(req, res);
    state.lists.get(idIn(req.params.listId, 'list_id'))?.subscribers.delete(me.id);
    await answer(res, 200, { data: { following: false } });
  });
  router.delete('/2/lists/:id/members/:userId', user, async (req, res) => {
    requireScopes(res, 'list.write', 'tweet.read', 'users.read');
    const list = ownedList(state, actingUser(res), idIn(req.params.id, 'id'));
    setListMember(list, state.user({ id: idIn(req.params.userId, 'user_id') }), false);
    await answer(res, 200, { data: { is_member: false } });
  });
}

/** The v2 routes for an account's writes (OAuth 2.0 user tokens, with scopes, or OAuth 1.0a user context); the reads are in v2-read-routes.ts. */
export function v2Routes(router: Router, ctx: PlatformContext): void {
  postRoutes(router, ctx);
  listRoutes(router, ctx);
  relationRoutes(router, ctx);
  dmRoutes(router, ctx);
}
