import { ACTIVITY_PARTITION_QUEUES, Queues, SYSTEM_TOPOLOGY, WebhookKeyRequest, type WebhookKeyResult } from '@crm/contracts';
import type { Logger } from '@crm/logging';
import { Broker, RpcError, RpcServer, rpcMethod } from '@crm/messaging';
import { freshVirtualHost, readQueues, type TestVirtualHost } from '@crm/testing';
import { readConfig } from '../config';
import { startWebhookIngest, type RunningService } from '../service';

/** What the stand-in for auth answers: the key of each environment it knows (`dev` at first; tests add more). */
export interface FakeAuthKeys {
  environments: Map<string, WebhookKeyResult>;
  /** Lookups per environment name. */
  lookups: Map<string, number>;
}

export interface IngestHarness {
  base: string;
  vhost: TestVirtualHost;
  keys: FakeAuthKeys;
  service: RunningService;
  /** Takes every message waiting in `queue` (parsed). */
  take: (queues?: readonly string[]) => Promise<unknown[]>;
  stop: () => Promise<void>;
}

/** webhook-ingest on loopback with a fresh virtual host and a stand-in for auth's webhook-key RPC. */
export async function startIngestHarness(options: { logger: Logger; secret: string; env?: Record<string, string> }): Promise<IngestHarness> {
  const { logger } = options;
  const vhost = await freshVirtualHost('webhook-ingest');
  const keys: FakeAuthKeys = { environments: new Map([['dev', { consumerSecret: options.secret }]]), lookups: new Map() };
  const authBroker = new Broker({ url: vhost.url, name: 'fake-auth', logger });
  const fakeAuth = new RpcServer(authBroker, {
    queue: Queues.authRpc,
    topology: SYSTEM_TOPOLOGY,
    producer: 'auth',
    methods: [
      rpcMethod(WebhookKeyRequest, async ({ envName }) => {
        keys.lookups.set(envName, (keys.lookups.get(envName) ?? 0) + 1);
        const known = keys.environments.get(envName);
        if (known) return known;
        throw new RpcError('unknown_environment', `no environment ${envName}`);
      }),
    ],
  });
  await fakeAuth.ready();
  const config = readConfig({ NODE_ENV: 'test', PORT: '0', AMQP_URL: vhost.url, ...options.env });
  const service = await startWebhookIngest(config, { logger });
  // Every activity partition by default: what webhook-ingest published for ticketing.
  const take = async (queues: readonly string[] = ACTIVITY_PARTITION_QUEUES) => {
    const contents = await readQueues(vhost.url, queues, { remove: true });
    return contents.map((content) => JSON.parse(content.toString()) as unknown);
  };
  return {
    base: `http://127.0.0.1:${service.port}`,
    vhost,
    keys,
    service,
    take,
    stop: async () => {
      await service.stop();
      await fakeAuth.stop();
      await authBroker.close();
      await vhost.drop();
    },
  };
}
