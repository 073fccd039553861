/**
 * The services end to end with provisioned credentials only: each connects as its own broker
 * user (topology verified, not declared) and, with a database, as its app role after migrating
 * as its migrator. A signed DM goes from the platform simulator through webhook-ingest (which
 * gets the webhook key from auth) to a ticket in ticketing.
 */
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import axios from 'axios';
import { readConfig as readAuthConfig } from '@crm/auth/src/config';
import { startAuth } from '@crm/auth/src/service';
import { closeServer, listen, portOf } from '@crm/http';
import { createSimulatorApp } from '@crm/social-platform-simulator/src/app';
import { loadSimulatorConfig } from '@crm/social-platform-simulator/src/config';
import { amqpUrl, databaseServerUrl, testLogger, waitFor, testClient } from '@crm/testing';
import { loadTicketingConfig } from '@crm/ticketing/src/config';
import { startTicketing } from '@crm/ticketing/src/service';
import { readConfig as readIngestConfig } from '@crm/webhook-ingest/src/config';
import { startWebhookIngest } from '@crm/webhook-ingest/src/service';
import { databaseRolesOf, deleteBrokerUsers, dropDatabaseRoles, provision, rabbitmqctl, type Provisioned } from './provision';

const run = randomBytes(4).toString('hex');
const prefix = `lp_${run}_`;
const vhost = `test-provisioned-${run}`;
const SECRET = `stack-secret-${run}`;
const TOKEN = `stack-token-${run}`;
const databases = { auth: `test_pstack_auth_${run}`, ticketing: `test_pstack_ticketing_${run}`, tracking: `test_pstack_tracking_${run}` };
const logger = testLogger('provisioned-stack');
const http = axios.create({ validateStatus: () => true });
const stops: (() => Promise<void>)[] = [];
let provisioned: Provisioned;
let simulatorUrl: string;
let ticketingUrl: string;

function options() {
  const admin = new URL(amqpUrl());
  admin.pathname = `/${vhost}`;
  return { amqpAdminUrl: admin.toString(), databaseAdminUrl: databaseServerUrl(), brokerUserPrefix: prefix, rolePrefix: prefix, databases };
}

/** A production service's settings: its own broker user and roles, the topology only verified. */
function own(service: 'auth' | 'ticketing' | 'webhook-ingest') {
  const { BROKER_USER: _user, ...urls } = provisioned.services[service];
  return { NODE_ENV: 'production', PORT: '0', BROKER_TOPOLOGY: 'verify', CRM_API_TOKENS: TOKEN, ...urls };
}

beforeAll(async () => {
  provisioned = await provision(options());
  const auth = await startAuth(
    readAuthConfig({
      ...own('auth'),
      SOCIAL_API_URL: 'http://127.0.0.1:9',
      SOCIAL_CONSUMER_KEY: 'stack-consumer-key',
      SOCIAL_CONSUMER_SECRET: SECRET,
      SOCIAL_OAUTH2_CLIENT_ID: 'oauth2-client-id',
      SOCIAL_OAUTH2_CLIENT_SECRET: 'oauth2-client-secret',
      SOCIAL_ENV_NAME: 'stack',
      PUBLIC_WEBHOOK_URL: 'http://127.0.0.1:9/webhooks/stack',
      CREDENTIALS_KEY: randomBytes(32).toString('base64'),
      WEBHOOK_KEY_CALLERS: provisioned.services['webhook-ingest'].BROKER_USER,
    }),
    { logger },
  );
  stops.unshift(auth.stop);
  const ingest = await startWebhookIngest(readIngestConfig(own('webhook-ingest')), { logger });
  stops.unshift(ingest.stop);
  const ticketing = await startTicketing(loadTicketingConfig(own('ticketing')), { logger });
  stops.unshift(ticketing.stop);
  ticketingUrl = `http://127.0.0.1:${ticketing.port}`;
  await http.put(`${ticketingUrl}/v1/partner-configs/1001`, { pageName: 'Stack' }, { headers: { authorization: `Bearer ${TOKEN}` } });
  const simulatorConfig = loadSimulatorConfig({ PORT: '0', SOCIAL_CONSUMER_SECRET: SECRET, SOCIAL_ENV_NAME: 'stack', WEBHOOK_URL: `http://127.0.0.1:${ingest.port}/webhooks/stack` });
  const simulator: Server = await listen(createSimulatorApp({ config: simulatorConfig, logger }), 0, '127.0.0.1');
  stops.unshift(() => closeServer(simulator));
  simulatorUrl = `http://127.0.0.1:${portOf(simulator)}`;
}, 240_000);

afterAll(async () => {
  for (const stop of stops) await stop().catch(() => undefined);
  await deleteBrokerUsers(prefix);
  await rabbitmqctl(['delete_vhost', vhost]).catch(() => undefined);
  for (const service of ['auth', 'ticketing', 'tracking'] as const) await dropDatabaseRoles(databaseServerUrl(), databaseRolesOf(options(), service, () => ''));
}, 120_000);

it('turns a signed DM into a ticket, each service with its own credentials', async () => {
  const sent = await http.post(`${simulatorUrl}/control/direct-messages`, { to: '1001', from: '@ana', text: 'where is my order?' });
  expect(sent.data.webhookStatus).toBe(200);
  const tickets = await waitFor(
    async () => {
      const res = await http.get(`${ticketingUrl}/v1/tickets?accountId=1001`, { headers: { authorization: `Bearer ${TOKEN}` } });
      return (res.data.items as unknown[]).length > 0 ? res.data.items : undefined;
    },
    { what: 'a ticket' },
  );
  expect(tickets).toEqual([expect.objectContaining({ contact: expect.objectContaining({ screenName: 'ana' }) })]);
});

/** The URL provisioning gave ticketing's role (ticketing has a database, so provisioning always gives one). */
function ticketingDatabaseUrl(): string {
  const url = provisioned.services.ticketing.DATABASE_URL;
  if (!url) throw new Error('provisioning gave ticketing no DATABASE_URL');
  return url;
}

it("the services' tables belong to their migrator, not to the role they run as", async () => {
  const client = testClient(ticketingDatabaseUrl());
  await client.connect();
  try {
    const { rows } = await client.query<{ owner: string }>("SELECT DISTINCT tableowner AS owner FROM pg_tables WHERE schemaname = 'public'");
    expect(rows).toEqual([{ owner: `${prefix}ticketing_migrator` }]);
  } finally {
    await client.end();
  }
});

it("ticketing's role may add to the raw log and read it, but neither change nor delete an entry; only the purge function deletes", async () => {
  const client = testClient(ticketingDatabaseUrl());
  await client.connect();
  try {
    await expect(client.query('DELETE FROM raw_log')).rejects.toThrow(/permission denied/);
    await expect(client.query("UPDATE raw_log SET env_name = 'x'")).rejects.toThrow(/permission denied/);
    const { rows } = await client.query<{ purged: number }>("SELECT raw_log_purge(now() - interval '1 day')::integer AS purged");
    expect(rows).toEqual([{ purged: 0 }]);
  } finally {
    await client.end();
  }
});
