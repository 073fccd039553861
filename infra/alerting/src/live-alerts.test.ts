/**
 * The alert rules against a real Prometheus (Debian's `prometheus`, run here on a port and data
 * folder of its own, never as a system service) scraping ticketing and tracking, started
 * in-process on a fresh virtual host and fresh databases: a poison message into
 * an activity partition (`ticketing.activity.0`) fires DeadLettersArriving, the tracking provider failing opens a breaker
 * and fires TrackingProviderBreakerOpen, ticketing's consumer of that partition gone with
 * its channel fires WorkQueueWithoutConsumers, all resolve once the cause is gone, deliveries are
 * measured from receipt to commit for the delivery-recorded SLI, every query of
 * the Grafana dashboard answers data, and tracking stopped fires ServiceDown, which resolves
 * once it is back. The rules are rules.yml with its waits (`for`) dropped and the cause
 * alerts' windows cut from minutes to seconds, so the test runs in well under a minute.
 *
 * Both services run in this one process, so each one's /metrics answers the metrics of both:
 * the expectations name the job whose code raised the alert.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import amqp from 'amqplib';
import { parse, stringify } from 'yaml';
import { Exchanges, RawActivity, SYSTEM_TOPOLOGY, ticketingActivityPartition } from '@crm/contracts';
import { requeueExchangeName } from '@crm/messaging';
import { freePort, waitFor } from '@crm/testing';
import { dmDelivery, dmEvent, rawActivity, userObject } from '@crm/ticketing/src/testing/deliveries';
import { apiClient, ticketingUnderTest, type TicketingUnderTest } from '@crm/ticketing/src/testing/harness';
import { startStack, type TrackingStack } from '@crm/tracking/src/testing/stack';
import { ALERTING_ROOT, RULES_PATH } from './prometheus-rule';

/** The cause alerts' windows, cut to this (scrapes and evaluations come every second). */
const WINDOW = '6s';
const BREAKER_RESET_MS = 3_000;

interface Rule {
  alert?: string;
  expr: string;
  for?: string;
}
interface Alert {
  labels: Record<string, string>;
  state: 'pending' | 'firing';
}

let ticketing: TicketingUnderTest;
let tracking: TrackingStack;
let trackingStopped = false;
let prometheus: ChildProcess;
let prometheusUrl: string;
let folder: string;
const prometheusLog: string[] = [];

/** rules.yml without waits, the cause alerts' windows in seconds. */
function quickRules(): string {
  const rules = parse(readFileSync(RULES_PATH, 'utf8')) as { groups: { name: string; rules: Rule[] }[] };
  for (const group of rules.groups) {
    for (const rule of group.rules) {
      if (!rule.alert) continue;
      delete rule.for;
      if (group.name === 'causes') rule.expr = rule.expr.replace(/\[\d+m\]/g, `[${WINDOW}]`).replace(/offset \d+m/g, `offset ${WINDOW}`);
    }
  }
  return stringify(rules);
}


/** `data` of an answer of Prometheus' HTTP API. */
async function prometheusData<T>(route: string, params: Record<string, string> = {}): Promise<T> {
  const res = await fetch(`${prometheusUrl}${route}?${new URLSearchParams(params)}`);
  if (!res.ok) throw new Error(`Prometheus answered ${res.status} to ${route}: ${await res.text()}`);
  return ((await res.json()) as { data: T }).data;
}

async function firing(): Promise<Alert[]> {
  return (await prometheusData<{ alerts: Alert[] }>('/api/v1/alerts')).alerts.filter((alert) => alert.state === 'firing');
}

/** Waits for the alert with these labels to fire (true) or to be gone (false). */
async function expectAlert(labels: Record<string, string>, fires: boolean): Promise<void> {
  const matches = (alert: Alert) => Object.entries(labels).every(([name, value]) => alert.labels[name] === value);
  await waitFor(async () => (await firing()).some(matches) === fires, { timeoutMs: 20_000, intervalMs: 250, what: `${JSON.stringify(labels)} ${fires ? 'firing' : 'resolved'}` });
}

async function query(promql: string): Promise<unknown[]> {
  return (await prometheusData<{ result: unknown[] }>('/api/v1/query', { query: promql })).result;
}

beforeAll(async () => {
  try {
    await new Promise<void>((resolve, reject) => spawn('sh', ['-c', 'command -v prometheus'], { stdio: 'ignore' }).once('exit', (code) => (code === 0 ? resolve() : reject(new Error()))));
  } catch {
    throw new Error("prometheus is missing: install Debian's prometheus package (bash infra/scripts/bootstrap.sh test does; or apt-get install prometheus)");
  }
  [ticketing, tracking] = await Promise.all([
    ticketingUnderTest('alerts'),
    startStack({ env: { BREAKER_MIN_CALLS: '3', BREAKER_RESET_MS: String(BREAKER_RESET_MS), PROVIDER_READ_RETRIES: '0', PROVIDER_TIMEOUT_MS: '500' } }),
  ]);
  await tracking.enableClient('flaky');

  folder = mkdtempSync(path.join(os.tmpdir(), 'prometheus-'));
  writeFileSync(path.join(folder, 'rules.yml'), quickRules());
  const config = {
    global: { scrape_interval: '1s', scrape_timeout: '900ms', evaluation_interval: '1s' },
    rule_files: ['rules.yml'],
    scrape_configs: [
      { job_name: 'ticketing', static_configs: [{ targets: [`127.0.0.1:${ticketing.service.port}`] }] },
      { job_name: 'tracking', static_configs: [{ targets: [`127.0.0.1:${tracking.service.port}`] }] },
    ],
  };
  writeFileSync(path.join(folder, 'prometheus.yml'), stringify(config));
  const port = await freePort();
  prometheusUrl = `http://127.0.0.1:${port}`;
  prometheus = spawn('prometheus', [`--config.file=${path.join(folder, 'prometheus.yml')}`, `--storage.tsdb.path=${path.join(folder, 'data')}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn'], { stdio: ['ignore', 'pipe', 'pipe'] });
  for (const stream of [prometheus.stdout!, prometheus.stderr!]) stream.on('data', (chunk: Buffer) => prometheusLog.push(chunk.toString()));
  await waitFor(async () => (await query('up == 1')).length === 2, { timeoutMs: 20_000, intervalMs: 250, what: `Prometheus scraping both services (its log: ${prometheusLog.join('')})` });
}, 60_000);

afterAll(async () => {
  prometheus?.kill('SIGTERM');
  await ticketing?.stop();
  if (!trackingStopped) await tracking?.stop();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

it('loads every rule of rules.yml, healthy', async () => {
  type Groups = { groups: { rules: { name: string; health: string }[] }[] };
  const rules = (await prometheusData<Groups>('/api/v1/rules')).groups.flatMap((group) => group.rules);
  const expected = (parse(readFileSync(RULES_PATH, 'utf8')) as { groups: { rules: unknown[] }[] }).groups.flatMap((group) => group.rules);
  expect(rules).toHaveLength(expected.length);
  await waitFor(async () => {
    const now = (await prometheusData<Groups>('/api/v1/rules')).groups.flatMap((group) => group.rules);
    return now.every((rule) => rule.health === 'ok');
  }, { what: 'every rule evaluated without error' });
});

it('fires TrackingProviderBreakerOpen while the provider fails, and resolves once it answers again', async () => {
  await expectAlert({ alertname: 'TrackingProviderBreakerOpen', job: 'tracking' }, false);
  await tracking.sim.put('/control/failures', { mode: 'error', status: 500, clientId: 'flaky' });
  for (const taskId of ['b-1', 'b-2', 'b-3']) expect((await tracking.api.get(`/v1/clients/flaky/tasks/${taskId}`)).status).toBe(503);
  expect((await tracking.api.get('/v1/clients/flaky/tasks/b-4')).data.error.code).toBe('circuit_open');
  await expectAlert({ alertname: 'TrackingProviderBreakerOpen', job: 'tracking', severity: 'ticket' }, true);

  await tracking.sim.delete('/control/failures');
  await tracking.simTask({ clientId: 'flaky', taskId: 'b-ok' });
  // After the reset time one trial call may pass; its success closes the breaker.
  await waitFor(async () => (await tracking.api.get('/v1/clients/flaky/tasks/b-ok')).status === 200, { timeoutMs: BREAKER_RESET_MS + 5_000, intervalMs: 250, what: 'breaker closed' });
  await expectAlert({ alertname: 'TrackingProviderBreakerOpen', job: 'tracking' }, false);
});

/** The activity partition the poison messages go to straight (the only replica is active on every one). */
const PARTITION = ticketingActivityPartition(0);

it('fires DeadLettersArriving for a poison message on an activity partition, and resolves once no more come', async () => {
  // The first dead letter makes its counter's series: the rule counts it when Prometheus already watched the job a window ago.
  await waitFor(async () => (await query(`up{job="ticketing"} offset ${WINDOW}`)).length === 1, { timeoutMs: 20_000, intervalMs: 250, what: 'a window of scrapes' });
  await expectAlert({ alertname: 'DeadLettersArriving', job: 'ticketing' }, false);
  const connection = await amqp.connect(ticketing.vhost.url);
  try {
    const channel = await connection.createConfirmChannel();
    channel.sendToQueue(PARTITION, Buffer.from('{not json'), { persistent: true });
    await channel.waitForConfirms();
  } finally {
    await connection.close();
  }
  await expectAlert({ alertname: 'DeadLettersArriving', job: 'ticketing', queue: PARTITION, severity: 'ticket' }, true);
  await expectAlert({ alertname: 'DeadLettersArriving', job: 'ticketing', queue: PARTITION }, false);
});

it("fires WorkQueueWithoutConsumers when ticketing's consumer of an activity partition is gone, and resolves once its connection is back", async () => {
  type Series = { metric: Record<string, string>; value: [number, string] };
  const reported = ((await query('messaging_consumers{job="ticketing"} > 0')) as Series[]).map((series) => series.metric.queue);
  const consumed = SYSTEM_TOPOLOGY.queues.filter((queue) => queue.kind !== 'presence' && queue.name.startsWith('ticketing.')).map((queue) => queue.name);
  expect(reported).toEqual(expect.arrayContaining(consumed));
  await expectAlert({ alertname: 'WorkQueueWithoutConsumers', job: 'ticketing' }, false);

  // The consumer's requeue exchange gone, a message it must dead-letter makes it publish there:
  // the broker closes its channel for that, and the channel stays closed until the connection
  // is re-established. The process runs on and answers its scrapes.
  const connection = await amqp.connect(ticketing.vhost.url);
  try {
    const channel = await connection.createConfirmChannel();
    await channel.deleteExchange(requeueExchangeName(PARTITION));
    channel.sendToQueue(PARTITION, Buffer.from('{not json'), { persistent: true });
    await channel.waitForConfirms();
  } finally {
    await connection.close();
  }
  await expectAlert({ alertname: 'WorkQueueWithoutConsumers', job: 'ticketing', queue: PARTITION, severity: 'page' }, true);
  const alone = (await firing()).filter((alert) => alert.labels.alertname === 'WorkQueueWithoutConsumers' && alert.labels.job === 'ticketing');
  expect(alone.map((alert) => alert.labels.queue)).toEqual([PARTITION]);
  expect((await query('up{job="ticketing"} == 1')).length).toBe(1);

  // What a broker restart, a network blip or the runbook's restart does: a new connection, whose
  // setup declares the exchange again and consumes.
  ticketing.service.broker.connection.reconnect();
  await expectAlert({ alertname: 'WorkQueueWithoutConsumers', job: 'ticketing' }, false);
  expect(((await query(`messaging_consumers{job="ticketing",queue="${PARTITION}"}`)) as Series[])[0]!.value[1]).toBe('1');
});

it('answers every query of the Grafana dashboard with data after a short load', async () => {
  const dashboard = JSON.parse(readFileSync(path.join(ALERTING_ROOT, '..', 'grafana', 'dashboard.json'), 'utf8')) as { panels: { title: string; targets?: { expr: string }[] }[] };
  const queries = dashboard.panels.flatMap((panel) => (panel.targets ?? []).map((target) => ({ panel: panel.title, expr: target.expr.replace(/\$job/g, '.+') })));
  expect(queries.length).toBeGreaterThan(10);
  await ticketing.publisher.delivery(dmDelivery('1001', [dmEvent({ id: '9001', from: '42', to: '1001', text: 'where is my order?' })], [userObject('42', 'ana', 'Ana')]));
  await tracking.simTask({ clientId: 'flaky', taskId: 'c-1' });
  for (let lookup = 0; lookup < 2; lookup++) expect((await tracking.api.get('/v1/clients/flaky/tasks/c-1')).status).toBe(200);
  // A rate needs two scrapes after the load.
  let empty: string[] = [];
  await waitFor(async () => {
    empty = [];
    for (const { panel, expr } of queries) if ((await query(expr)).length === 0) empty.push(panel);
    return empty.length === 0;
  }, { timeoutMs: 15_000, intervalMs: 500, what: 'data for every panel' }).catch(() => undefined);
  expect(empty).toEqual([]);
});

it('measures each delivery from its receipt by webhook-ingest to its commit: one in time, one received 30 s before, and a held one not at all', async () => {
  type Series = { metric: Record<string, string>; value: [number, string] };
  const api = apiClient(() => `http://127.0.0.1:${ticketing.service.port}`);
  const recorded = async () => {
    const [count, inTime] = await Promise.all(['delivery_recorded_seconds_count{job="ticketing"}', 'delivery_recorded_seconds_bucket{job="ticketing",le="10"}'].map(async (expr) => Number(((await query(expr)) as Series[])[0]?.value[1])));
    return { count: count!, inTime: inTime! };
  };
  const before = await recorded();
  expect(Number.isFinite(before.count) && Number.isFinite(before.inTime)).toBe(true);

  // An account without a partner configuration: its delivery is held, not recorded.
  await ticketing.publisher.delivery(dmDelivery('3003', [dmEvent({ id: '9301', from: '45', to: '3003', text: 'hello?' })], [userObject('45', 'bea', 'Bea')]));
  await waitFor(async () => ((await api.get<{ accounts: unknown[] }>('/v1/held-deliveries?accountId=3003')).body.accounts.length === 1), { what: 'the delivery held' });

  expect([200, 201]).toContain((await api.put('/v1/partner-configs/2002', {})).status);
  await ticketing.publisher.delivery(dmDelivery('2002', [dmEvent({ id: '9201', from: '43', to: '2002', text: 'in time' })], [userObject('43', 'cy', 'Cy')]));
  const late = { ...rawActivity(dmDelivery('2002', [dmEvent({ id: '9202', from: '44', to: '2002', text: 'late' })], [userObject('44', 'di', 'Di')])), receivedAt: new Date(Date.now() - 30_000).toISOString() };
  await ticketing.publisher.envelope(Exchanges.socialActivity, `${late.kind}.${late.forUserId}`, RawActivity, late);

  await waitFor(async () => (await recorded()).count === before.count + 2, { timeoutMs: 20_000, intervalMs: 250, what: 'both deliveries recorded, scraped' });
  expect(await recorded()).toEqual({ count: before.count + 2, inTime: before.inTime + 1 });
  // The SLI reads the histogram: it answers, and counts the late delivery as bad.
  expect(Number(((await query('slo:sli_error:ratio_rate5m{slo="delivery-recorded"}')) as Series[])[0]?.value[1])).toBeGreaterThan(0);
});

it('fires ServiceDown when tracking stops (its consumers gone with it), and resolves once it is back', async () => {
  await expectAlert({ alertname: 'ServiceDown', job: 'tracking' }, false);
  const port = tracking.service.port;
  trackingStopped = true;
  await tracking.stop();
  await expectAlert({ alertname: 'ServiceDown', job: 'tracking', severity: 'page' }, true);
  expect((await firing()).filter((alert) => alert.labels.alertname === 'ServiceDown').map((alert) => alert.labels.job)).toEqual(['tracking']);

  tracking = await startStack({ env: { PORT: String(port) } });
  trackingStopped = false;
  await expectAlert({ alertname: 'ServiceDown', job: 'tracking' }, false);
});
