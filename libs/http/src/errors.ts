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

/** The answer to an error: its status, headers and `{"error":{"code","message"}}` body; internal details go to the log. */
export function errorAnswer(error: unknown, logger: Logger): { status: number; headers: Record<string, string>; body: ReturnType<typeof errorBody> } {
  if (error instanceof HttpError) return { status: error.status, headers: error.headers, body: errorBody(error.code, error.message) };
  const parserError = error as { type?: string; status?: number; limit?: number };
  if (parserError.type === 'entity.too.large') {
    return { status: 413, headers: {}, body: errorBody('payload_too_large', `the body is larger than the limit of ${parserError.limit} bytes`) };
  }
  if (parserError.type === 'entity.parse.failed') return { status: 400, headers: {}, body: errorBody('invalid_json', 'the body is not valid JSON') };
  if (parserError.status && parserError.status >= 400 && parserError.status < 500) {
    return { status: parserError.status, headers: {}, body: errorBody('bad_request', (error as Error).message) };
  }
  logger.error('request failed', { err: error });
  return { status: 500, headers: {}, body: errorBody('internal', 'something went wrong on our side; try again, and report it if it persists') };
}

/** Answers every error as `{"error":{"code","message"}}`; internal details stay in the log. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error, _req, res, _next) => {
    const { status, headers, body } = errorAnswer(error, logger);
    res.set(headers).status(status).json(body);
  };
}
