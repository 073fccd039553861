import type { Server } from 'node:http';
import { SYSTEM_TOPOLOGY, type Topology } from '@crm/contracts';
import { closeServer, createHttpApp, listen, portOf, readOpenApiDocument } from '@crm/http';
import type { Logger } from '@crm/logging';
import { Broker, Publisher, RpcClient } from '@crm/messaging';
import type { WebhookIngestConfig } from './config';
import { WebhookKeys } from './adapters/webhook-keys';
import { deliveryRoutes, isDelivery, webhookRoutes } from './http/routes';

export interface RunningService {
  server: Server;
  port: number;
  stop: () => Promise<void>;
}

/** Wires webhook-ingest: broker connection, publisher, auth RPC client, HTTP routes. */
export async function startWebhookIngest(config: WebhookIngestConfig, deps: { logger: Logger; topology?: Topology }): Promise<RunningService> {
  const { logger } = deps;
  const topology = deps.topology ?? SYSTEM_TOPOLOGY;
  const broker = new Broker({ url: config.AMQP_URL, name: 'webhook-ingest', logger, topology: config.BROKER_TOPOLOGY });
  const publisher = new Publisher(broker, topology, config.PUBLISH_TIMEOUT_MS);
  const rpc = new RpcClient(broker, 'webhook-ingest', topology);
  const keys = new WebhookKeys(rpc, {
    ttlMs: config.WEBHOOK_KEY_CACHE_SECONDS * 1000,
    unknownTtlMs: config.UNKNOWN_ENVIRONMENT_CACHE_SECONDS * 1000,
    timeoutMs: config.AUTH_RPC_TIMEOUT_MS,
  });

  const routeDeps = { keys, publisher, logger, bodyLimit: config.BODY_LIMIT, publishTimeoutMs: config.PUBLISH_TIMEOUT_MS };
  const app = createHttpApp({
    logger,
    parseJson: false,
    readiness: { broker: () => broker.isConnected() },
    // A delivery's signature covers its raw bytes and the route checks the delivery itself: the
    // validator does not read it. Deliveries are hot routes, ahead of Express and its validator;
    // skipValidation keeps it so when Express serves them (a server made without listen()).
    openApi: { document: readOpenApiDocument('services/webhook-ingest/openapi.yaml'), skipValidation: isDelivery },
    hotRoutes: deliveryRoutes(routeDeps),
    routes: (a) => webhookRoutes(a, routeDeps),
  });
  const server = await listen(app, config.PORT);
  const port = portOf(server);
  logger.info('webhook-ingest listening', { url: `http://127.0.0.1:${port}`, webhook: `http://127.0.0.1:${port}/webhooks/:envName` });

  return {
    server,
    port,
    stop: async () => {
      await closeServer(server); // no new deliveries; the ones in progress finish publishing
      await rpc.close();
      await publisher.close();
      await broker.close();
    },
  };
}
