import { ACCOUNT_HEADER, Exchanges, RawActivity, SYSTEM_TOPOLOGY, type Contract, type Envelope } from '@crm/contracts';
import { Broker, makeEnvelope, Publisher } from '@crm/messaging';
import { migratedDatabase, freshVirtualHost, testLogger, waitFor, type TestDatabase, type TestVirtualHost } from '@crm/testing';
import { loadTicketingConfig, type TicketingConfig } from '../config';
import { MIGRATIONS_DIR, startTicketing, type RunningTicketing, type TicketingOptions } from '../service';
import { rawActivity } from './deliveries';

/** Pieces the integration tests of ticketing share. */

export const TEST_TOKEN = 'test-token-ticketing';

/** The service's own defaults, with what tests need: any free port, debug logs, a quick shutdown, the test token. */
export function testConfig(overrides: Partial<TicketingConfig> & { AMQP_URL: string; DATABASE_URL: string }): TicketingConfig {
  return {
    ...loadTicketingConfig({ NODE_ENV: 'test', PORT: '0', LOG_LEVEL: 'debug', SHUTDOWN_TIMEOUT_MS: '5000', CRM_API_TOKENS: `another-token,${TEST_TOKEN}` }),
    ...overrides,
  };
}

/** One ticketing on a virtual host and a database of its own, a publisher beside it, and what stops and drops them all. */
export interface TicketingUnderTest {
  vhost: TestVirtualHost;
  db: TestDatabase;
  service: RunningTicketing;
  publisher: TestPublisher;
  stop: () => Promise<void>;
}

export async function ticketingUnderTest(name: string, overrides: Partial<TicketingConfig> = {}, options: Partial<TicketingOptions> = {}): Promise<TicketingUnderTest> {
  const [vhost, db] = await Promise.all([freshVirtualHost(name), migratedDatabase(name, MIGRATIONS_DIR)]);
  const service = await startTicketing(testConfig({ AMQP_URL: vhost.url, DATABASE_URL: db.url, ...overrides }), { logger: testLogger(`ticketing-${name}`), host: '127.0.0.1', ...options });
  const publisher = new TestPublisher(vhost.url);
  await publisher.ready();
  return {
    vhost,
    db,
    service,
    publisher,
    stop: async () => {
      await publisher.close();
      await service.stop();
      await Promise.all([db.drop(), vhost.drop()]);
    },
  };
}

/** Publishes as webhook-ingest and auth would, on a test virtual host with the real names. */
export class TestPublisher {
  private readonly broker: Broker;
  private readonly publisher: Publisher;

  constructor(url: string) {
    this.broker = new Broker({ url, name: 'ticketing-test-publisher', logger: testLogger() });
    this.publisher = new Publisher(this.broker, SYSTEM_TOPOLOGY);
  }

  ready(): Promise<void> {
    return this.publisher.ready();
  }

  /** A delivery as webhook-ingest publishes it; returns the envelope id (pass one to redeliver the same message). */
  async delivery(delivery: object, envelopeId?: string): Promise<string> {
    const payload = rawActivity(delivery);
    const envelope = makeEnvelope(RawActivity, 'webhook-ingest', payload, envelopeId ? { id: envelopeId } : {});
    await this.publisher.publish(Exchanges.socialActivity, `${payload.kind}.${payload.forUserId ?? 'none'}`, envelope, { headers: { [ACCOUNT_HEADER]: payload.forUserId ?? 'unknown' } });
    return envelope.id;
  }

  /** Any message (account events, a broken envelope) on any exchange. */
  async envelope<P>(exchange: string, routingKey: string, contract: Contract<P>, payload: P, id?: string): Promise<Envelope<P>> {
    const envelope = makeEnvelope(contract, 'test', payload, id ? { id } : {});
    await this.publisher.publish(exchange, routingKey, envelope);
    return envelope;
  }

  async close(): Promise<void> {
    await this.publisher.close();
    await this.broker.close();
  }
}

export interface ApiAnswer<T> {
  status: number;
  body: T;
}

/** The CRM's view: JSON over HTTP with the bearer token. */
export function apiClient(baseUrl: () => string) {
  async function call<T>(method: string, path: string, body?: unknown, token: string | null = TEST_TOKEN): Promise<ApiAnswer<T>> {
    const headers: Record<string, string> = token === null ? {} : { authorization: `Bearer ${token}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${baseUrl()}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await response.text();
    return { status: response.status, body: (text === '' ? null : JSON.parse(text)) as T };
  }
  return {
    get: <T = Record<string, unknown>>(path: string, token?: string | null) => call<T>('GET', path, undefined, token),
    put: <T = Record<string, unknown>>(path: string, body: unknown, token?: string | null) => call<T>('PUT', path, body, token),
    post: <T = Record<string, unknown>>(path: string, body: unknown, token?: string | null) => call<T>('POST', path, body, token),
    patch: <T = Record<string, unknown>>(path: string, body: unknown, token?: string | null) => call<T>('PATCH', path, body, token),
    delete: <T = Record<string, unknown>>(path: string, token?: string | null) => call<T>('DELETE', path, undefined, token),
  };
}

/** Log lines as objects. */
export function logEntries(lines: string[]): { message?: string; envelopeId?: string; [key: string]: unknown }[] {
  return lines.map((line) => JSON.parse(line) as { message?: string; envelopeId?: string });
}

/** Counts the messages a service handled, by envelope id: pass `note` as its `onHandled` hook. */
export class HandledMessages {
  private readonly counts = new Map<string, number>();
  private all = 0;

  readonly note = (envelopeId: string): void => {
    this.counts.set(envelopeId, (this.counts.get(envelopeId) ?? 0) + 1);
    this.all += 1;
  };

  /** How many messages were handled in all. */
  get total(): number {
    return this.all;
  }

  /** Waits until the message was handled `times` times. */
  async wait(envelopeId: string, times = 1): Promise<void> {
    await waitFor(() => (this.counts.get(envelopeId) ?? 0) >= times, { what: `envelope ${envelopeId} handled ${times} time(s)` });
  }
}

/** A small deterministic random number generator (mulberry32), for shuffles a failing run can repeat. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function shuffled<T>(items: T[], random: () => number): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}
