import type { Request, Response } from 'express';
import { principalOf } from '@crm/access';
import { Refusal } from '@crm/http';
import { readIdempotencyKey } from '../domain/idempotency';
import type { IdempotencyKey } from '../operations/idempotency';

/** The request's `Idempotency-Key`, scoped to its principal; undefined without one; 400 invalid_idempotency_key when malformed. */
export function idempotencyKeyOf(req: Request): IdempotencyKey | undefined {
  const read = readIdempotencyKey(req.headers['idempotency-key']);
  if ('problem' in read) throw new Refusal('invalid', 'invalid_idempotency_key', read.problem);
  return read.key === null ? undefined : { principalId: principalOf(req).id, key: read.key };
}

/** Marks a replayed answer, so a client can tell it sent nothing new. */
export function markReplayed(res: Response, replayed: boolean): void {
  if (replayed) res.setHeader('idempotent-replayed', 'true');
}
