import { randomBytes } from 'node:crypto';
import axios, { type AxiosInstance } from 'axios';
import type { Logger } from '@crm/logging';
import { migratedDatabase, freshVirtualHost, simulators, testLogger, type TestDatabase, type TestVirtualHost } from '@crm/testing';
import { readConfig } from '../config';
import { MIGRATIONS_DIR, startTracking, type RunningService } from '../service';

export const TOKEN = 'tracking-test-token';

export interface SimCalls {
  provider: number;
  router: number;
  byTask: Record<string, number>;
}

/** The service in-process against the simulator, a fresh database and a fresh virtual host. */
export interface TrackingStack {
  service: RunningService;
  /** tracking's HTTP API, with the CRM token; every status is answered (no throw). */
  api: AxiosInstance;
  /** The simulator (provider routes and control API). */
  sim: AxiosInstance;
  simUrl: string;
  amqpUrl: string;
  databaseUrl: string;
  /** Makes a client known to the simulator and enabled in tracking; returns its key. */
  enableClient: (clientId: string, include?: string[]) => Promise<string>;
  /** Creates a task in the simulator (control API) and returns its record. */
  simTask: (spec: Record<string, unknown>) => Promise<Record<string, unknown>>;
  calls: () => Promise<SimCalls>;
  /** Another tracking process on the same database and virtual host (stopped with the stack). */
  startReplica: () => Promise<RunningService>;
  stop: () => Promise<void>;
}

export interface StackOptions {
  /** Extra environment of tracking (overrides). */
  env?: Record<string, string>;
  /** Let tracking use the simulator as its router (ROUTING_URL). */
  router?: boolean;
  logger?: Logger;
}

export async function startStack(options: StackOptions = {}): Promise<TrackingStack> {
  const [db, vhost]: [TestDatabase, TestVirtualHost] = await Promise.all([migratedDatabase('tracking', MIGRATIONS_DIR), freshVirtualHost('tracking')]);
  const simulator = await simulators().trackingProvider({ SIM_CLIENTS: 'seed:seed-api-key-0', PUBLIC_URL: 'http://sim.test' }, testLogger('tracking-provider-simulator'));
  const simUrl = simulator.url;
  const config = readConfig({
    NODE_ENV: 'test',
    PORT: '0',
    AMQP_URL: vhost.url,
    DATABASE_URL: db.url,
    TRACKING_API_URL: simUrl,
    CRM_API_TOKENS: TOKEN,
    CREDENTIALS_KEY: randomBytes(32).toString('base64'),
    ...(options.router ? { ROUTING_URL: simUrl } : {}),
    ...options.env,
  });
  const service = await startTracking(config, { logger: options.logger ?? testLogger('tracking') });
  const replicas: RunningService[] = [];
  const api = axios.create({ baseURL: `http://127.0.0.1:${service.port}`, headers: { authorization: `Bearer ${TOKEN}` }, validateStatus: () => true });
  const sim = axios.create({ baseURL: simUrl, validateStatus: () => true });

  return {
    service,
    api,
    sim,
    simUrl,
    amqpUrl: vhost.url,
    databaseUrl: db.url,
    enableClient: async (clientId, include = []) => {
      const apiKey = `key-${clientId}-${randomBytes(6).toString('hex')}`;
      await sim.put(`/control/clients/${clientId}`, { apiKey });
      const res = await api.put(`/v1/clients/${clientId}`, { enabled: true, apiKey, include });
      if (res.status !== 201 && res.status !== 200) throw new Error(`enabling ${clientId} answered ${res.status}: ${JSON.stringify(res.data)}`);
      return apiKey;
    },
    simTask: async (spec) => {
      const res = await sim.post('/control/tasks', spec);
      if (res.status !== 201) throw new Error(`simulator refused the task: ${JSON.stringify(res.data)}`);
      return res.data as Record<string, unknown>;
    },
    calls: async () => (await sim.get('/control/calls')).data as SimCalls,
    startReplica: async () => {
      const replica = await startTracking(config, { logger: testLogger('tracking-replica') });
      replicas.push(replica);
      return replica;
    },
    stop: async () => {
      for (const replica of replicas) await replica.stop();
      await service.stop();
      await sim.delete('/control/failures');
      await simulator.close();
      await Promise.all([db.drop(), vhost.drop()]);
    },
  };
}
