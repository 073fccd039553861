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

export async function api<T = unknown>(method: string, path: string, body?: unknown, extraHeaders: Record<string, string> = {}): Promise<T> {
  const headers: Record<string, string> = { ...extraHeaders, accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET') headers['x-csrf-token'] = csrfToken;
  let response: Response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'same-origin' });
  } catch {
    throw new ApiError(0, 'network', 'the console cannot be reached; check your connection');
  }
  if (response.status === 204) return undefined as T;
  const data = (await response.json().catch(() => null)) as { error?: { code: string; message: string; fields?: FieldProblem[] } } | null;
  if (!response.ok) {
    const code = data?.error?.code ?? 'error';
    // session_ended clears the cookie, so a call after it (say, of the event stream) finds none: not_signed_in.
    if (response.status === 401 && (code === 'session_ended' || code === 'not_signed_in')) for (const listener of endedListeners) listener();
    const retryAfter = response.status === 429 && /^[0-9]+$/.test(response.headers.get('retry-after') ?? '') ? Number(response.headers.get('retry-after')) : null;
    const message = response.status === 429 ? tooManyMessage(retryAfter) : (data?.error?.message ?? `the request failed (${response.status})`);
    throw new ApiError(response.status, code, message, data?.error?.fields ?? [], retryAfter);
  }
  return data as T;
}

export interface Settings {
  tileUrl: string;
  tileAttribution: string;
  mapRefreshMs: number;
  pollIntervalMs: number;
}

export interface SessionInfo {
  /** Who is signed in, by name. */
  agent: string;
  /** Who is signed in, by id (what ticketing records as `by`). */
  agentId: string | null;
  scopes: string[];
  accountIds: string[] | null;
  ticketId: string | null;
  csrfToken: string;
  expiresAt: string;
  settings: Settings;
}
