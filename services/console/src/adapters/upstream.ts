import { currentCorrelationId } from '@crm/logging';
import { Refusal } from '@crm/http';

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** An answer of ticketing, auth or tracking, whatever its status. */
export interface UpstreamAnswer {
  status: number;
  body: unknown;
  headers: Headers;
}

export interface UpstreamOptions {
  name: 'ticketing' | 'auth';
  baseUrl: string;
  timeoutMs: number;
}

/**
 * Calls one of the services with the given bearer token (the agent's session, or the console's
 * own credential when it asks auth for a session) and the request's correlation id.
 * A network failure or a timeout becomes 502/504 with the service named; any answer is
 * returned as it is for the route to relay.
 */
export class Upstream {
  constructor(private readonly options: UpstreamOptions) {}

  get name(): string {
    return this.options.name;
  }

  async call(token: string, method: string, path: string, body?: unknown, extraHeaders: Record<string, string> = {}): Promise<UpstreamAnswer> {
    const headers: Record<string, string> = { ...extraHeaders, authorization: `Bearer ${token}`, accept: 'application/json', 'x-correlation-id': currentCorrelationId() };
    if (body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await fetch(new URL(path, this.options.baseUrl), {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.options.timeoutMs),
        redirect: 'manual',
      });
    } catch (error) {
      throw this.unreachable(error);
    }
    const text = await response.text();
    const parsed = text ? (parseJson(text) ?? { error: { code: 'upstream_invalid', message: `${this.options.name} answered something that is not JSON` } }) : null;
    return { status: response.status, body: parsed, headers: response.headers };
  }

  /**
   * A GET of a file (a CSV) with the given bearer token: its text as it is; a JSON refusal's
   * body parsed, so it is relayed as any refusal. 502/504 as `call`.
   */
  async download(token: string, path: string): Promise<UpstreamAnswer & { text: string }> {
    let response: Response;
    try {
      response = await fetch(new URL(path, this.options.baseUrl), {
        headers: { authorization: `Bearer ${token}`, 'x-correlation-id': currentCorrelationId() },
        signal: AbortSignal.timeout(this.options.timeoutMs),
        redirect: 'manual',
      });
    } catch (error) {
      throw this.unreachable(error);
    }
    const text = await response.text();
    let body: unknown = null;
    if (response.status >= 400) body = parseJson(text) ?? { error: { code: 'upstream_refused', message: text.slice(0, 200) } };
    return { status: response.status, body, headers: response.headers, text };
  }

  private unreachable(error: unknown): Refusal {
    const timedOut = (error as Error).name === 'TimeoutError';
    return new Refusal(timedOut ? 'upstream_timeout' : 'upstream_failed', timedOut ? 'upstream_timeout' : 'upstream_unavailable', `${this.options.name} ${timedOut ? 'did not answer in time' : 'cannot be reached'}; try again shortly`);
  }

  /** Whether the service answers its liveness check. */
  async alive(): Promise<boolean> {
    const response = await fetch(new URL('/health/live', this.options.baseUrl), { signal: AbortSignal.timeout(2000) }).catch(() => null);
    return response?.ok ?? false;
  }

  /** Opens a streaming GET (server-sent events); the caller reads and aborts it. */
  stream(token: string, path: string, signal: AbortSignal): Promise<Response> {
    return fetch(new URL(path, this.options.baseUrl), {
      headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream', 'x-correlation-id': currentCorrelationId() },
      signal,
    });
  }
}
