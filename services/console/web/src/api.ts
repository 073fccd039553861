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

export async function api<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
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
    throw new ApiError(response.status, data?.error?.code ?? 'error', data?.error?.message ?? `the request failed (${response.status})`, data?.error?.fields ?? []);
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
  agent: string;
  ticketId: string | null;
  csrfToken: string;
  expiresAt: string;
  settings: Settings;
}
