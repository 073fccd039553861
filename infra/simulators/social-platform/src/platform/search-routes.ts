import type { Response, Router } from 'express';
import { actingUser, answer, authenticate, param, requireScopes, tweetMode } from './authn';
import type { PlatformContext } from './context';
import { Errors, PlatformError } from './errors';
import { postObject } from './objects';
import type { PlatformState, Post } from './state';
import { maxResults } from './v2-objects';
import { timelineAnswer } from './v2-read-routes';

/** The standard search's rate limit with user context: 180 requests per 15-minute window. */
export const SEARCH_LIMIT = 180;
const WINDOW_MS = 15 * 60_000;
const ID = /^[0-9]{1,20}$/;

/** `q` as terms: words and "quoted phrases" the text must hold, `from:name` for the author. */
interface ParsedQuery {
  phrases: string[];
  from: string | null;
}

export function parseQuery(q: string): ParsedQuery {
  const phrases: string[] = [];
  let from: string | null = null;
  for (const [, quoted, word] of q.matchAll(/"([^"]+)"|(\S+)/g)) {
    if (word?.toLowerCase().startsWith('from:')) from = word.slice(5).replace(/^@/, '').toLowerCase();
    else phrases.push((quoted ?? word!).toLowerCase());
  }
  return { phrases, from };
}

function matches(state: PlatformState, post: Post, query: ParsedQuery): boolean {
  const author = state.user({ id: post.authorId });
  if (query.from && author.screenName.toLowerCase() !== query.from) return false;
  const original = post.repostOf ? state.posts.get(post.repostOf) : undefined;
  const text = (original ? `RT @${state.user({ id: original.authorId }).screenName}: ${original.text}` : post.text).toLowerCase();
  return query.phrases.every((phrase) => text.includes(phrase));
}

function idParam(res: Response, name: string): bigint | null {
  const value = param(res, name);
  if (value === undefined || value === '') return null;
  if (!ID.test(value)) throw Errors.invalidParameter(name);
  return BigInt(value);
}

/** Requests per user in the current window; a request beyond the limit is answered 429 until the window ends. */
class SearchWindow {
  private readonly windows = new Map<string, { start: number; used: number }>();

  take(userId: string, now = Date.now()): { remaining: number; resetAt: number } {
    let window = this.windows.get(userId);
    if (!window || now - window.start >= WINDOW_MS) {
      window = { start: now, used: 0 };
      this.windows.set(userId, window);
    }
    const resetAt = Math.ceil((window.start + WINDOW_MS) / 1000);
    if (window.used >= SEARCH_LIMIT) {
      throw new PlatformError(429, 88, 'Rate limit exceeded', rateHeaders(0, resetAt), 'search window used up');
    }
    window.used += 1;
    return { remaining: SEARCH_LIMIT - window.used, resetAt };
  }
}

const rateHeaders = (remaining: number, resetAt: number) => ({
  'x-rate-limit-limit': String(SEARCH_LIMIT),
  'x-rate-limit-remaining': String(remaining),
  'x-rate-limit-reset': String(resetAt),
});

/**
 * `GET /1.1/search/tweets.json`: the standard search over the posts the simulator knows, as
 * a user (OAuth 1.0a user context): `q` (words and "phrases" the text holds, `from:name`),
 * `since_id`, `max_id`, `count` (default 15, at most 100), `result_type` (every type answers
 * the recent posts). Newest first; posts of protected accounts the user does not follow are
 * left out. Rate limited per user (180 per 15 minutes, with `x-rate-limit-*` headers); a
 * fault (`POST /control/platform/faults` with this path and status 429) answers 429 at once.
 * `GET /2/tweets/search/recent` searches the same posts the v2 way: `query`, `since_id`,
 * `until_id`, `max_results` (10 to 100, default 10), `next_token`/`pagination_token`,
 * `sort_order`; `{data, includes, meta: {newest_id, oldest_id, result_count, next_token}}`.
 */
export function searchRoutes(router: Router, ctx: PlatformContext): void {
  const { state } = ctx;
  const window = new SearchWindow();
  router.get('/1.1/search/tweets.json', authenticate(ctx, 'user'), async (_req, res) => {
    const me = actingUser(res);
    const q = param(res, 'q');
    if (q === undefined || q.trim() === '') throw new PlatformError(400, 25, 'Query parameters are missing.');
    if (q.length > 500) throw Errors.invalidParameter('q');
    const countValue = param(res, 'count');
    const count = countValue === undefined ? 15 : Number(countValue);
    if (!Number.isInteger(count) || count < 1) throw Errors.invalidParameter('count');
    const sinceId = idParam(res, 'since_id');
    const maxId = idParam(res, 'max_id');
    const limit = window.take(me.id);
    const query = parseQuery(q);
    const statuses = [...state.posts.values()]
      .filter((post) => (sinceId === null || BigInt(post.id) > sinceId) && (maxId === null || BigInt(post.id) <= maxId))
      .filter((post) => state.canSee(me.id, post.authorId) && matches(state, post, query))
      .sort((a, b) => (BigInt(b.id) > BigInt(a.id) ? 1 : -1))
      .slice(0, Math.min(count, 100));
    const newest = statuses[0]?.id ?? String(sinceId ?? 0);
    res.set(rateHeaders(limit.remaining, limit.resetAt));
    await answer(res, 200, {
      statuses: statuses.map((post) => postObject(state, post, me.id, tweetMode(res))),
      search_metadata: {
        completed_in: 0.01,
        max_id: Number(newest),
        max_id_str: newest,
        since_id: Number(sinceId ?? 0),
        since_id_str: String(sinceId ?? 0),
        query: encodeURIComponent(q),
        count: Math.min(count, 100),
        refresh_url: `?since_id=${newest}&q=${encodeURIComponent(q)}&result_type=recent&include_entities=1`,
      },
    });
  });
  // v2's recent search has a window of its own, of the same size.
  const v2Window = new SearchWindow();
  router.get('/2/tweets/search/recent', authenticate(ctx, 'user'), async (_req, res) => {
    requireScopes(res, 'tweet.read', 'users.read');
    const me = actingUser(res);
    const q = param(res, 'query');
    if (q === undefined || q.trim() === '') throw new PlatformError(400, 0, 'The `query` query parameter can not be empty');
    if (q.length > 512) throw new PlatformError(400, 0, `The \`query\` query parameter value [${q.slice(0, 20)}...] is too long (${q.length} > 512)`);
    const sortOrder = param(res, 'sort_order');
    if (sortOrder !== undefined && sortOrder !== 'recency' && sortOrder !== 'relevancy') throw new PlatformError(400, 0, `The \`sort_order\` query parameter value [${sortOrder}] is not one of [recency, relevancy]`);
    const size = maxResults(res, 10, 100, 10);
    const limit = v2Window.take(me.id);
    const query = parseQuery(q);
    const found = [...state.posts.values()].filter((post) => state.canSee(me.id, post.authorId) && matches(state, post, query));
    res.set(rateHeaders(limit.remaining, limit.resetAt));
    await answer(res, 200, timelineAnswer(ctx, res, found, size, param(res, 'next_token') === undefined ? 'pagination_token' : 'next_token'));
  });
}
