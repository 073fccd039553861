import axios, { type AxiosError, type AxiosInstance } from 'axios';
import axiosRetry, { exponentialDelay } from 'axios-retry';
import type { Logger } from '@crm/logging';
import { TrackingError } from '../domain/errors';
import type { ClientCredentials } from './clients-store';

export interface ProviderOptions {
  baseUrl: string;
  /** The query parameter carrying the extra field groups (`include`). */
  includeParam: string;
  createMethod: 'PUT' | 'POST';
  /** With `{clientId}` and, for PUT, `{taskId}`. */
  createPath: string;
  /** Each attempt's own time limit. */
  timeoutMs: number;
  /** Extra attempts of a read after a network error, a timeout or a 5xx. */
  readRetries: number;
  /** The first retry's delay; later ones double (with jitter; a Retry-After answer is honoured). */
  retryDelayMs: number;
  logger: Logger;
}

export type TaskRecord = Record<string, unknown>;

const isObject = (value: unknown): value is TaskRecord => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The provider's own words about a refusal, short, for the caller's error message. */
function providerMessage(data: unknown): string {
  if (isObject(data)) {
    const error = isObject(data.error) ? data.error : data;
    if (typeof error.message === 'string') return `: ${error.message.slice(0, 200)}`;
  }
  return '';
}

const isTimeout = (error: AxiosError) => error.code === 'ETIMEDOUT' || error.code === 'ECONNABORTED';

/** Reads are retried on network errors (timeouts included) and 5xx; anything else is final. */
function retryableRead(error: AxiosError): boolean {
  if (error.config?.method?.toUpperCase() !== 'GET' || axios.isCancel(error)) return false;
  return error.response ? error.response.status >= 500 : true;
}

/** Turns an axios failure into what tracking tells its caller. */
function providerFailure(error: unknown, what: string): TrackingError {
  if (!axios.isAxiosError(error)) return new TrackingError('provider_unavailable', `${what} failed: ${(error as Error).message}`, true);
  const response = error.response;
  if (!response) {
    if (isTimeout(error)) return new TrackingError('provider_timeout', `${what}: the tracking provider did not answer in time`, true);
    return new TrackingError('provider_unavailable', `${what}: the tracking provider could not be reached (${error.code ?? 'network error'})`, true);
  }
  const { status, data } = response;
  if (status >= 500) return new TrackingError('provider_unavailable', `${what}: the tracking provider failed (HTTP ${status})`, true);
  if (status === 404) return new TrackingError('task_not_found', `${what}: the tracking provider has no such task`);
  if (status === 401 || status === 403) {
    return new TrackingError('provider_auth_failed', `${what}: the tracking provider refused the client's credentials (HTTP ${status}); check its apiKey with PUT /v1/clients/:clientId`);
  }
  return new TrackingError('provider_rejected', `${what}: the tracking provider refused the request (HTTP ${status})${providerMessage(data)}`);
}

/**
 * The tracking provider's task API (docs/architecture.md, "The tracking provider"), called with axios because a
 * task read is a GET with a JSON body (`{}`), which Node's fetch refuses to send. Each
 * attempt has its own timeout; reads are retried with growing delays, creates never
 * (a create's retry is the caller's, made safe by the task id).
 */
export class ProviderClient {
  private readonly http: AxiosInstance;

  constructor(private readonly options: ProviderOptions) {
    this.http = axios.create({
      baseURL: options.baseUrl.replace(/\/$/, ''),
      timeout: options.timeoutMs,
      maxRedirects: 0,
      transitional: { clarifyTimeoutError: true },
      headers: { accept: 'application/json' },
    });
    axiosRetry(this.http, {
      retries: options.readRetries,
      shouldResetTimeout: true,
      retryCondition: retryableRead,
      // exponentialDelay doubles its factor from the first retry on: halved, the first retry waits retryDelayMs (+0-20% jitter).
      retryDelay: (retryCount, error) => exponentialDelay(retryCount, error, options.retryDelayMs / 2),
      onRetry: (retryCount, error) => {
        options.logger.warn('provider read failed; retrying', { attempt: retryCount, reason: error.response ? `HTTP ${error.response.status}` : (error.code ?? error.message) });
      },
    });
  }

  private auth(client: ClientCredentials) {
    return { username: client.clientId, password: client.apiKey };
  }

  async getTask(client: ClientCredentials, taskId: string, include: string[]): Promise<TaskRecord> {
    const url = `/v1/client/${encodeURIComponent(client.clientId)}/task/${encodeURIComponent(taskId)}`;
    try {
      const response = await this.http.get<unknown>(url, {
        data: {},
        auth: this.auth(client),
        params: include.length > 0 ? { [this.options.includeParam]: include.join(',') } : undefined,
      });
      if (!isObject(response.data)) throw new TrackingError('provider_unavailable', `task ${taskId}: the tracking provider answered something that is not a task record`, true);
      return response.data;
    } catch (error) {
      throw error instanceof TrackingError ? error : providerFailure(error, `task ${taskId}`);
    }
  }

  /**
   * Creates a task under the caller's task id. An id that exists already is not an error:
   * the provider's PUT answers it as it is, a POST answers 409 and the task is read instead.
   */
  async createTask(client: ClientCredentials, taskId: string, body: TaskRecord): Promise<{ task: TaskRecord; created: boolean }> {
    const url = this.options.createPath.replace('{clientId}', encodeURIComponent(client.clientId)).replace('{taskId}', encodeURIComponent(taskId));
    try {
      const response = await this.http.request<unknown>({ method: this.options.createMethod, url, data: body, auth: this.auth(client) });
      const task = isObject(response.data) ? response.data : await this.getTask(client, taskId, []);
      return { task, created: response.status === 201 };
    } catch (error) {
      if (axios.isAxiosError(error) && error.response?.status === 409) return { task: await this.getTask(client, taskId, []), created: false };
      if (error instanceof TrackingError) throw error;
      const failure = providerFailure(error, `creating task ${taskId}`);
      // Whether a create that timed out happened is unknown: say that repeating it is safe.
      if (failure.code === 'provider_timeout' || failure.code === 'provider_unavailable') {
        throw new TrackingError(failure.code, `${failure.message}; whether the task was created is unknown: send the same create again (same taskId) to make sure`, true);
      }
      throw failure;
    }
  }
}
