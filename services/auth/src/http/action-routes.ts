import { randomUUID } from 'node:crypto';
import type { Request, Router } from 'express';
import type { SocialAction } from '@crm/contracts';
import { principalOf, requireScope } from '@crm/access';
import { Refusal } from '@crm/http';
import { platformRefusalKind } from '../domain/platform-errors';
import { ACTIONS } from '../domain/actions';
import { dmImageProblem } from '../domain/media';
import type { ActionExecutor, ActionResult } from '../operations/executor';
import { allowedAccountIdParam } from './params';

type Input = Record<string, unknown>;

/**
 * One action as an HTTP route under /v1/accounts/:accountId. Its input is put together from
 * the path (each `:param` fills the input field of the same name, `:user` fills userId or
 * screenName), the query names listed, and the JSON body when the action takes one. The
 * OpenAPI document's operations are generated from these routes and the actions' input schemas.
 */
export interface ActionRoute {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** Under /v1/accounts/:accountId */
  path: string;
  action: SocialAction;
  /** Input fields named otherwise than their path parameter: `{ postId: 'inReplyToPostId' }`. */
  fields?: Record<string, string>;
  query?: string[];
  body?: boolean;
  /** What the operation does beyond its name, for the document. */
  description?: string;
  /** Refuses an input the platform would, with words for a person, before anything is recorded. */
  check?: (input: Input) => void;
}

/** Path parameters of a route, in order: `/lists/:listId/members/:user` has listId and user. */
export const pathParams = (path: string): string[] => [...path.matchAll(/:([A-Za-z]+)/g)].map((match) => match[1]!);

const PAGE = ['count', 'sinceId', 'maxId'];
const CURSOR_PAGE = ['count', 'cursor'];

/** The CRM's routes for every action, under /v1/accounts/:accountId. Literal paths come before parameter paths they share a prefix with. */
export const ACTION_ROUTES: ActionRoute[] = [
  { method: 'get', path: '/timeline', action: 'read_home_timeline', query: PAGE },
  { method: 'get', path: '/users/:user/timeline', action: 'read_user_timeline', query: PAGE },
  { method: 'get', path: '/users/:user', action: 'read_user' },
  { method: 'get', path: '/profile', action: 'read_profile' },
  { method: 'patch', path: '/profile', action: 'update_profile', body: true },
  { method: 'get', path: '/settings', action: 'read_settings' },
  { method: 'patch', path: '/settings', action: 'update_settings', body: true },
  {
    method: 'get',
    path: '/search',
    action: 'search_posts',
    query: ['query', 'sinceId', 'count', 'resultType'],
    description: "The platform's search of recent posts as the account, newest first (resultType can only be recent); data is {statuses, search_metadata}, v1.1's shape.",
  },
  { method: 'get', path: '/following', action: 'read_following', query: CURSOR_PAGE },
  { method: 'put', path: '/following/:user', action: 'follow' },
  { method: 'delete', path: '/following/:user', action: 'unfollow' },

  { method: 'post', path: '/posts', action: 'post', body: true },
  { method: 'delete', path: '/posts/:postId', action: 'delete_post' },
  { method: 'post', path: '/posts/:postId/replies', action: 'reply', fields: { postId: 'inReplyToPostId' }, body: true },
  { method: 'post', path: '/posts/:postId/reposts', action: 'repost' },
  { method: 'put', path: '/posts/:postId/like', action: 'like' },
  { method: 'delete', path: '/posts/:postId/like', action: 'unlike' },

  { method: 'get', path: '/lists', action: 'read_lists' },
  { method: 'post', path: '/lists', action: 'create_list', body: true },
  { method: 'get', path: '/lists/subscriptions', action: 'read_subscribed_lists', query: CURSOR_PAGE },
  { method: 'get', path: '/lists/:listId/posts', action: 'read_list_posts', query: ['count'] },
  { method: 'patch', path: '/lists/:listId', action: 'update_list', body: true },
  { method: 'delete', path: '/lists/:listId', action: 'delete_list' },
  { method: 'put', path: '/lists/:listId/members/:user', action: 'add_list_member' },
  { method: 'delete', path: '/lists/:listId/members/:user', action: 'remove_list_member' },

  { method: 'get', path: '/collections', action: 'read_collections', query: ['count'] },
  { method: 'post', path: '/collections', action: 'create_collection', body: true },
  { method: 'get', path: '/collections/:collectionId/entries', action: 'read_collection_entries', query: ['count'] },
  { method: 'patch', path: '/collections/:collectionId', action: 'update_collection', body: true },
  { method: 'delete', path: '/collections/:collectionId', action: 'delete_collection' },
  { method: 'put', path: '/collections/:collectionId/entries/:postId', action: 'add_collection_entry' },
  { method: 'delete', path: '/collections/:collectionId/entries/:postId', action: 'remove_collection_entry' },

  { method: 'put', path: '/mutes/:user', action: 'mute' },
  { method: 'delete', path: '/mutes/:user', action: 'unmute' },
  { method: 'put', path: '/blocks/:user', action: 'block' },
  { method: 'delete', path: '/blocks/:user', action: 'unblock' },
  { method: 'post', path: '/reports', action: 'report', body: true },

  {
    method: 'post',
    path: '/media',
    action: 'upload_media',
    body: true,
    check: dmImageCheck,
    description:
      'Uploads an image for a DM (JPEG, PNG, WEBP or GIF, at most 5 MB; 415 for another kind of file, 413 for a larger one). platformId is the media id send_dm takes as mediaId, for 24 hours.',
  },
  { method: 'get', path: '/direct-messages', action: 'read_dms', query: CURSOR_PAGE },
  { method: 'post', path: '/direct-messages', action: 'send_dm', body: true },
  { method: 'post', path: '/direct-messages/read', action: 'mark_dm_read', body: true },
  { method: 'post', path: '/direct-messages/typing', action: 'indicate_typing', body: true },
  { method: 'get', path: '/direct-messages/:eventId', action: 'read_dm' },
  { method: 'delete', path: '/direct-messages/:eventId', action: 'delete_dm' },
];

/** An image a DM cannot carry is refused with what to do about it (413, 415). */
function dmImageCheck(input: Input): void {
  const problem = typeof input.media === 'string' ? dmImageProblem(Buffer.from(input.media, 'base64')) : null;
  if (problem) throw new Refusal(problem.kind, problem.kind === 'too_large' ? 'image_too_large' : 'unsupported_image_type', problem.message);
}

/** Query values as the input wants them: `count` as a number when it is one, the rest as given. */
function queryInput(req: Request, names: string[]): Input {
  const out: Input = {};
  for (const name of names) {
    const value = req.query[name];
    if (value === undefined) continue;
    out[name] = name === 'count' && typeof value === 'string' && /^[0-9]{1,6}$/.test(value) ? Number(value) : value;
  }
  return out;
}

/** `:user` in a path: digits name a user by id, anything else by screen name. */
function userInput(value: string): Input {
  return /^[0-9]+$/.test(value) ? { userId: value } : { screenName: value.replace(/^@/, '') };
}

/** The action's input from the body, then the query, then the path (the path wins: a body cannot retarget the route). */
export function actionInput(route: ActionRoute, req: Request): Input {
  const body = route.body && typeof req.body === 'object' && req.body !== null && !Array.isArray(req.body) ? (req.body as Input) : {};
  const input: Input = { ...body, ...queryInput(req, route.query ?? []) };
  for (const param of pathParams(route.path)) {
    const value = String(req.params[param]);
    if (param === 'user') Object.assign(input, userInput(value));
    else input[route.fields?.[param] ?? param] = value;
  }
  return input;
}

const IDEMPOTENCY_KEY = /^[A-Za-z0-9._:-]{1,100}$/;

/**
 * The command an HTTP write is recorded as. An Idempotency-Key is the caller's own: it names
 * one request of one principal (a credential, with all its sessions, or a bootstrap token) for
 * one account, so another tenant sending the same key makes another command. Principal ids
 * hold no ':', so the parts cannot run into each other.
 */
export const httpCommandId = (principalId: string, accountId: string, key: string): string => `http:${principalId}:${accountId}:${key}`;

/** The HTTP answer for a result that did not succeed: status by code, the platform's message kept. */
export function failureToHttp(result: ActionResult): Refusal {
  const failure = result.error!;
  if (result.outcome === 'unknown') return new Refusal('upstream_timeout', 'outcome_unknown', failure.message);
  const platform = failure.platformCode !== null ? ` (platform code ${failure.platformCode})` : '';
  switch (failure.code) {
    case 'account_not_connected':
      return new Refusal('not_found', failure.code, failure.message);
    case 'reconnect_needed':
    case 'needs_oauth1':
      return new Refusal('conflict', failure.code, failure.message);
    case 'platform_rejected':
      return new Refusal(platformRefusalKind({ status: failure.platformStatus, invalidToken: false }, true), failure.code, `${failure.message}${platform}`);
    case 'invalid_input':
      return new Refusal('invalid', failure.code, failure.message);
    case 'usage_capped':
      return new Refusal('rate_limited', failure.code, failure.message);
    case 'credits_depleted':
      return new Refusal('unavailable', failure.code, failure.message);
    case 'budget_exhausted':
      return new Refusal('forbidden', failure.code, failure.message);
    default:
      return new Refusal('unavailable', failure.code, `${failure.message}${platform}`);
  }
}

/**
 * Mounts every action, for credentials allowed the account. A write is recorded as a command under
 * `http:<principal>:<account>:<Idempotency-Key>` (a fresh key when none is sent), so a retried
 * request with the same key is not sent twice.
 */
export function actionRoutes(router: Router, executor: ActionExecutor): void {
  for (const route of ACTION_ROUTES) {
    const write = ACTIONS[route.action].kind === 'write';
    // Acting on behalf of an account is what an agent does from a ticket: reads need tickets:read, writes tickets:write.
    router[route.method](`/v1/accounts/:accountId${route.path}`, requireScope(write ? 'tickets:write' : 'tickets:read'), async (req, res) => {
      const accountId = allowedAccountIdParam(req);
      let commandId: string | null = null;
      if (write) {
        const key = req.get('idempotency-key');
        if (key !== undefined && !IDEMPOTENCY_KEY.test(key)) throw new Refusal('invalid', 'invalid_idempotency_key', 'Idempotency-Key must be 1-100 letters, digits or ._:-');
        commandId = httpCommandId(principalOf(req).id, accountId, key ?? randomUUID());
      }
      const input = actionInput(route, req);
      route.check?.(input);
      const result = await executor.execute({ commandId, source: 'http', action: route.action, accountId, input }, { final: false });
      if (result.outcome !== 'succeeded') throw failureToHttp(result);
      res.json({
        ...(commandId ? { commandId } : {}),
        action: result.action,
        accountId: result.accountId,
        outcome: result.outcome,
        platformId: result.platformId,
        data: result.data,
        replayed: result.replayed,
      });
    });
  }
}
