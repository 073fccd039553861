import type { ErrorRequestHandler } from 'express';
import { HttpError } from '@crm/http';
import { Refused, type RefusalKind } from '../operations/ticket-errors';

const STATUS: Record<RefusalKind, number> = { invalid: 400, not_found: 404, conflict: 409 };

/** A use case's refusal as an HTTP answer: `{"error":{"code","message"}}` with its status. */
export const refusalsAsHttp: ErrorRequestHandler = (error, _req, _res, next) => {
  next(error instanceof Refused ? new HttpError(STATUS[error.kind], error.code, error.message) : error);
};
