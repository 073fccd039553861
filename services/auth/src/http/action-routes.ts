import { randomUUID } from 'node:crypto';
import type { Request, Router } from 'express';
import type { SocialAction } from '@crm/contracts';
import { requireScope } from '@crm/access';
import { HttpError } from '@crm/http';
import { ACTIONS } from '../domain/actions';
import type { ActionExecutor, ActionResult } from '../operations/executor';
import { allowedAccountIdParam } from './params';

type Input = Record<string, unknown>;

interface ActionRoute {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** Under /v1/accounts/:accountId */
  path: string;
  action: SocialAction;
  input: (req: Request) => Input;
}

const body = (req: Request): Input => (typeof req.body === 'object' && req.body !== null && !Array.isArray(req.body) ? (req.body as Input) : {});

/** Query values as the input wants them: `count` as a number when it is one, the rest as given. */
function query(req: Request, names: string[]): Input {
  const out: Input = {};
  for (const name of names) {
    const value = req.query[name];
    if (value === undefined) continue;
    out[name] = name === 'count' && typeof value === 'string' && /^[0-9]{1,6}$/.test(value) ? Number(value) : value;
  }
  return out;
}

/** `:user` in a path: digits name a user by id, anything else by screen name. */
const user = (req: Request, param = 'user'): Input => {
  const value = String(req.params[param]);
  return /^[0-9]+$/.test(value) ? { userId: value } : { screenName: value.replace(/^@/, '') };
};
const p = (req: Request, name: string) => String(req.params[name]);

/** The CRM's routes for every action, under /v1/accounts/:accountId. */
export const ACTION_ROUTES: ActionRoute[] = [
  { method: 'get', path: '/timeline', action: 'read_home_timeline', input: (req) => query(req, ['count', 'sinceId', 'maxId']) },
  { method: 'get', path: '/users/:user/timeline', action: 'read_user_timeline', input: (req) => ({ ...user(req), ...query(req, ['count', 'sinceId', 'maxId']) }) },
  { method: 'get', path: '/users/:user', action: 'read_user', input: (req) => user(req) },
  { method: 'get', path: '/profile', action: 'read_profile', input: () => ({}) },
  { method: 'patch', path: '/profile', action: 'update_profile', input: body },
  { method: 'get', path: '/settings', action: 'read_settings', input: () => ({}) },
  { method: 'patch', path: '/settings', action: 'update_settings', input: body },
  { method: 'get', path: '/search', action: 'search_posts', input: (req) => query(req, ['query', 'sinceId', 'count', 'resultType']) },
  { method: 'get', path: '/following', action: 'read_following', input: (req) => query(req, ['count', 'cursor']) },
  { method: 'put', path: '/following/:user', action: 'follow', input: (req) => user(req) },
  { method: 'delete', path: '/following/:user', action: 'unfollow', input: (req) => user(req) },

  { method: 'post', path: '/posts', action: 'post', input: body },
  { method: 'delete', path: '/posts/:postId', action: 'delete_post', input: (req) => ({ postId: p(req, 'postId') }) },
  { method: 'post', path: '/posts/:postId/replies', action: 'reply', input: (req) => ({ ...body(req), inReplyToPostId: p(req, 'postId') }) },
  { method: 'post', path: '/posts/:postId/reposts', action: 'repost', input: (req) => ({ postId: p(req, 'postId') }) },
  { method: 'put', path: '/posts/:postId/like', action: 'like', input: (req) => ({ postId: p(req, 'postId') }) },
  { method: 'delete', path: '/posts/:postId/like', action: 'unlike', input: (req) => ({ postId: p(req, 'postId') }) },

  { method: 'get', path: '/lists', action: 'read_lists', input: () => ({}) },
  { method: 'get', path: '/lists/subscriptions', action: 'read_subscribed_lists', input: (req) => query(req, ['count', 'cursor']) },
  { method: 'get', path: '/lists/:listId/posts', action: 'read_list_posts', input: (req) => ({ listId: p(req, 'listId'), ...query(req, ['count']) }) },
  { method: 'post', path: '/lists', action: 'create_list', input: body },
  { method: 'patch', path: '/lists/:listId', action: 'update_list', input: (req) => ({ ...body(req), listId: p(req, 'listId') }) },
  { method: 'delete', path: '/lists/:listId', action: 'delete_list', input: (req) => ({ listId: p(req, 'listId') }) },
  { method: 'put', path: '/lists/:listId/members/:user', action: 'add_list_member', input: (req) => ({ listId: p(req, 'listId'), ...user(req) }) },
  { method: 'delete', path: '/lists/:listId/members/:user', action: 'remove_list_member', input: (req) => ({ listId: p(req, 'listId'), ...user(req) }) },

  { method: 'get', path: '/collections', action: 'read_collections', input: (req) => query(req, ['count']) },
  { method: 'get', path: '/collections/:collectionId/entries', action: 'read_collection_entries', input: (req) => ({ collectionId: p(req, 'collectionId'), ...query(req, ['count']) }) },
  { method: 'post', path: '/collections', action: 'create_collection', input: body },
  { method: 'patch', path: '/collections/:collectionId', action: 'update_collection', input: (req) => ({ ...body(req), collectionId: p(req, 'collectionId') }) },
  { method: 'delete', path: '/collections/:collectionId', action: 'delete_collection', input: (req) => ({ collectionId: p(req, 'collectionId') }) },
  { method: 'put', path: '/collections/:collectionId/entries/:postId', action: 'add_collection_entry', input: (req) => ({ collectionId: p(req, 'collectionId'), postId: p(req, 'postId') }) },
  { method: 'delete', path: '/collections/:collectionId/entries/:postId', action: 'remove_collection_entry', input: (req) => ({ collectionId: p(req, 'collectionId'), postId: p(req, 'postId') }) },

  { method: 'put', path: '/mutes/:user', action: 'mute', input: (req) => user(req) },
  { method: 'delete', path: '/mutes/:user', action: 'unmute', input: (req) => user(req) },
  { method: 'put', path: '/blocks/:user', action: 'block', input: (req) => user(req) },
  { method: 'delete', path: '/blocks/:user', action: 'unblock', input: (req) => user(req) },
  { method: 'post', path: '/reports', action: 'report', input: body },

  { method: 'get', path: '/direct-messages', action: 'read_dms', input: (req) => query(req, ['count', 'cursor']) },
  { method: 'post', path: '/direct-messages', action: 'send_dm', input: body },
  { method: 'post', path: '/direct-messages/read', action: 'mark_dm_read', input: body },
  { method: 'post', path: '/direct-messages/typing', action: 'indicate_typing', input: body },
  { method: 'get', path: '/direct-messages/:eventId', action: 'read_dm', input: (req) => ({ eventId: p(req, 'eventId') }) },
  { method: 'delete', path: '/direct-messages/:eventId', action: 'delete_dm', input: (req) => ({ eventId: p(req, 'eventId') }) },
];

const IDEMPOTENCY_KEY = /^[A-Za-z0-9._:-]{1,100}$/;

/** The HTTP answer for a result that did not succeed: status by code, the platform's message kept. */
export function failureToHttp(result: ActionResult): HttpError {
  const failure = result.error!;
  if (result.outcome === 'unknown') return new HttpError(504, 'outcome_unknown', failure.message);
  const platform = failure.platformCode !== null ? ` (platform code ${failure.platformCode})` : '';
  switch (failure.code) {
    case 'account_not_connected':
      return new HttpError(404, failure.code, failure.message);
    case 'reconnect_needed':
      return new HttpError(409, failure.code, failure.message);
    case 'platform_rejected': {
      const status = failure.platformStatus;
      const mapped = status === 400 || status === 403 || status === 404 || status === 409 ? status : status === 401 ? 403 : 422;
      return new HttpError(mapped, failure.code, `${failure.message}${platform}`);
    }
    case 'invalid_input':
      return new HttpError(400, failure.code, failure.message);
    default:
      return new HttpError(503, failure.code, `${failure.message}${platform}`);
  }
}

/**
 * Mounts every action, for credentials allowed the account. A write is recorded as a command under `http-<Idempotency-Key>`
 * (a fresh key when none is sent), so a retried request with the same key is not sent twice.
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
        if (key !== undefined && !IDEMPOTENCY_KEY.test(key)) throw new HttpError(400, 'invalid_idempotency_key', 'Idempotency-Key must be 1-100 letters, digits or ._:-');
        commandId = `http-${key ?? randomUUID()}`;
      }
      const result = await executor.execute({ commandId, source: 'http', action: route.action, accountId, input: route.input(req) }, { final: false });
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
