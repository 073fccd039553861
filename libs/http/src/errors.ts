import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from '@crm/logging';

/** An error with the status and machine code to answer; the message is for a person. */
export class HttpError extends Error {
  override name = 'HttpError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export function errorBody(code: string, message: string) {
  return { error: { code, message } };
}

export const notFound: RequestHandler = (req, res) => {
  res.status(404).json(errorBody('not_found', `no route for ${req.method} ${req.path}`));
};

/** Answers every error as `{"error":{"code","message"}}`; internal details stay in the log. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error, _req, res, _next) => {
    if (error instanceof HttpError) {
      res.set(error.headers).status(error.status).json(errorBody(error.code, error.message));
      return;
    }
    const parserError = error as { type?: string; status?: number; limit?: number };
    if (parserError.type === 'entity.too.large') {
      res.status(413).json(errorBody('payload_too_large', `the body is larger than the limit of ${parserError.limit} bytes`));
      return;
    }
    if (parserError.type === 'entity.parse.failed') {
      res.status(400).json(errorBody('invalid_json', 'the body is not valid JSON'));
      return;
    }
    if (parserError.status && parserError.status >= 400 && parserError.status < 500) {
      res.status(parserError.status).json(errorBody('bad_request', (error as Error).message));
      return;
    }
    logger.error('request failed', { err: error });
    res.status(500).json(errorBody('internal', 'something went wrong on our side; try again, and report it if it persists'));
  };
}
