/** The console server's API, as the browser calls it: the session cookie and, on writes, the CSRF token. */

/** One refused field of a request, as the services' request checks list them: `{in: 'body', field: 'routing.rules[0].queue', message}`. */
export interface FieldProblem {
  in: string;
  field: string;
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields: FieldProblem[] = [],
    /** Seconds to wait, for a 429. */
    readonly retryAfter: number | null = null,
  ) {
    super(message);
  }

  /** JSON pointers named in the message (ticketing's validation errors), e.g. `/routing/rules/0/queue`. */
  get pointers(): string[] {
    return [...this.message.matchAll(/(\/[A-Za-z0-9_]+(?:\/[A-Za-z0-9_]+)*)/g)].map((match) => match[1]!);
  }
}

let csrfToken = '';
export const setCsrfToken = (token: string) => {
  csrfToken = token;
};

/** Called when the server says the session has ended (signed out elsewhere, revoked, expired): the page shows the sign-in. */
const endedListeners = new Set<() => void>();
export function onSessionEnded(listener: () => void): () => void {
  endedListeners.add(listener);
  return () => {
    endedListeners.delete(listener);
  };
}

/** A 429's message: when to try again, whatever the service said. */
function tooManyMessage(retryAfter: number | null): string {
  return retryAfter === null ? 'too many attempts; try again shortly' : `too many attempts; try again in ${retryAfter} s`;
}

/** The request's headers as the console server wants them: JSON, and on writes the CSRF token. */
function consoleHeaders(method: string, headers: Headers): Headers {
  headers.set('accept', 'application/json');
  if (method !== 'GET' && method !== 'HEAD') headers.set('x-csrf-token', csrfToken);
  return headers;
}

/** fetch, with a network failure as an ApiError a person can act on. */
async function reach(request: Request): Promise<Response> {
  try {
    return await fetch(request);
  } catch {
    throw new ApiError(0, 'network', 'the console cannot be reached; check your connection');
  }
}

/** The ApiError of a failed answer (its `{"error":{code,message,fields}}` body); a 401 for an ended session tells the listeners. */
export function failureOf(response: Response, data: unknown): ApiError {
  const error = (data as { error?: { code?: string; message?: string; fields?: FieldProblem[] } } | null)?.error;
  const code = error?.code ?? 'error';
  // session_ended clears the cookie, so a call after it (say, of the event stream) finds none: not_signed_in.
  if (response.status === 401 && (code === 'session_ended' || code === 'not_signed_in')) for (const listener of endedListeners) listener();
  const retryAfter = response.status === 429 && /^[0-9]+$/.test(response.headers.get('retry-after') ?? '') ? Number(response.headers.get('retry-after')) : null;
  const message = response.status === 429 ? tooManyMessage(retryAfter) : (error?.message ?? `the request failed (${response.status})`);
  return new ApiError(response.status, code, message, error?.fields ?? [], retryAfter);
}

/**
 * The typed clients' fetch: a service's path (`/v1/tickets`) goes to the console server's relay
 * of it (`/api/tickets`), with the session cookie and the CSRF token.
 */
export async function viaConsole(request: Request): Promise<Response> {
  const url = new URL(request.url);
  if (url.pathname.startsWith('/v1/')) url.pathname = `/api/${url.pathname.slice('/v1/'.length)}`;
  // The body read whole: Chromium streams a request body only over HTTP/2.
  const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer();
  return reach(new Request(url, { method: request.method, headers: consoleHeaders(request.method, new Headers(request.headers)), body, credentials: 'same-origin', signal: request.signal }));
}

/** The page's address (none outside a browser, where the typed client's test runs). */
export const pageLocation = (globalThis as { location?: { href: string; origin: string } }).location ?? { href: 'http://localhost/', origin: 'http://localhost' };
