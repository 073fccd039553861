import type { RequestHandler } from 'express';

/** How a request authenticated, as the simulator's request log shows it (never a token or secret). */
export interface CallerSummary {
  kind: 'user' | 'request-token' | 'consumer' | 'app' | 'basic' | 'none';
  userId?: string;
}

/** One request the platform received, for tests to assert on. */
export interface ReceivedRequest {
  at: string;
  method: string;
  path: string;
  query: Record<string, string>;
  form: Record<string, string>;
  json: unknown;
  caller: CallerSummary;
  /** The answer's status; null when the caller went away before it was answered. */
  status: number | null;
  /** Why the platform refused it (wrong signature, reused nonce, ...). */
  rejection?: string;
}

/** The last requests the platform API received, most recent first. */
export class RequestLog {
  private readonly entries: ReceivedRequest[] = [];

  constructor(private readonly capacity = 1000) {}

  /** Records each request once it is over: answered, or given up by the caller (a timeout on its side). */
  middleware(): RequestHandler {
    return (req, res, next) => {
      res.on('close', () => {
        const locals = res.locals as { query?: Record<string, string>; form?: Record<string, string>; caller?: CallerSummary; rejection?: string };
        const isJson = req.is('application/json') === 'application/json';
        this.entries.unshift({
          at: new Date().toISOString(),
          method: req.method,
          path: req.originalUrl.split('?')[0]!,
          query: locals.query ?? {},
          form: locals.form ?? {},
          json: isJson ? (req.body ?? null) : null,
          caller: locals.caller ?? { kind: 'none' },
          status: res.headersSent ? res.statusCode : null,
          ...(locals.rejection ? { rejection: locals.rejection } : {}),
        });
        if (this.entries.length > this.capacity) this.entries.length = this.capacity;
      });
      next();
    };
  }

  list(filter: { path?: string; method?: string } = {}): ReceivedRequest[] {
    return this.entries.filter((e) => (!filter.path || e.path === filter.path) && (!filter.method || e.method === filter.method.toUpperCase()));
  }

  clear(): void {
    this.entries.length = 0;
  }
}
