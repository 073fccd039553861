import type { Request } from 'express';
import { principalOf } from '@crm/access';
import { Refusal } from '@crm/http';

const ACCOUNT_ID = /^[0-9]{1,20}$/;

/** `:accountId`: a platform user id (digits). */
export function accountIdParam(req: Request): string {
  const value = String(req.params.accountId);
  if (!ACCOUNT_ID.test(value)) throw new Refusal('invalid', 'invalid_account_id', '`accountId` must be the platform user id (digits)');
  return value;
}

/** `:accountId` of an account the credential may see: another account is answered as not connected (404), as if it did not exist. */
export function allowedAccountIdParam(req: Request): string {
  const accountId = accountIdParam(req);
  if (!principalOf(req).allowsAccount(accountId)) throw new Refusal('not_found', 'account_not_connected', `account ${accountId} is not connected in auth`);
  return accountId;
}

/** The JSON body as an object ({} when there is none). */
export function bodyOf(req: Request): Record<string, unknown> {
  if (req.body === undefined) return {};
  if (typeof req.body !== 'object' || req.body === null || Array.isArray(req.body)) throw new Refusal('invalid', 'invalid_request', 'send a JSON object');
  return req.body as Record<string, unknown>;
}

export function optionalString(body: Record<string, unknown>, field: string, pattern?: RegExp): string | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || (pattern && !pattern.test(value))) throw new Refusal('invalid', 'invalid_request', `\`${field}\` must be ${pattern ? `a string matching ${pattern}` : 'a string'}`);
  return value;
}

export function requiredString(body: Record<string, unknown>, field: string): string {
  const value = optionalString(body, field);
  if (!value) throw new Refusal('invalid', 'invalid_request', `\`${field}\` is required (a non-empty string)`);
  return value;
}
