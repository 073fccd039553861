/**
 * The alert rules as Prometheus' own tools see them: `promtool check rules` and `promtool test
 * rules` (rules.test.yml: for every alert, series that make it fire and series that must not),
 * `promtool check config` of the example Prometheus configuration, `amtool check-config` and the
 * routes of the example Alertmanager configuration. Then what promtool cannot know: every alert
 * has a severity the routes know and a runbook section that exists, every metric a rule reads is
 * one the services register, and the PrometheusRule of the overlays is the rules file as it is.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { ALERTING_ROOT, RULES_PATH, staleProblems } from './prometheus-rule';

const REPO_ROOT = path.join(ALERTING_ROOT, '..', '..');

interface Rule {
  alert?: string;
  record?: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}
interface AlertTest {
  eval_time: string;
  alertname: string;
  exp_alerts?: unknown[];
}

const rules = (parse(readFileSync(RULES_PATH, 'utf8')) as { groups: { name: string; rules: Rule[] }[] }).groups.flatMap((group) => group.rules);
const alerts = rules.filter((rule) => rule.alert);
const alertNames = [...new Set(alerts.map((rule) => rule.alert!))];

/** Runs one of Prometheus' tools in infra/alerting; its output (stdout, then stderr), whatever its exit status. */
function run(tool: string, args: string[]): { status: number | null; output: string; stdout: string } {
  const result = spawnSync(tool, args, { cwd: ALERTING_ROOT, encoding: 'utf8' });
  if (result.error) throw result.error;
  return { status: result.status, output: `${result.stdout}${result.stderr}`, stdout: result.stdout };
}

beforeAll(() => {
  for (const tool of ['promtool', 'amtool']) {
    try {
      execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' });
    } catch {
      throw new Error(`${tool} is missing: install Debian's prometheus and prometheus-alertmanager packages (bash infra/scripts/bootstrap.sh test does; or apt-get install prometheus prometheus-alertmanager)`);
    }
  }
});

it('is a valid rules file to promtool', () => {
  const { status, output } = run('promtool', ['check', 'rules', 'rules.yml']);
  expect({ status, output }).toEqual({ status: 0, output: expect.stringContaining(`SUCCESS: ${rules.length} rules found`) });
});

it("passes promtool's unit tests", () => {
  const { status, output } = run('promtool', ['test', 'rules', 'rules.test.yml']);
  expect({ status, output }).toEqual({ status: 0, output: expect.stringContaining('SUCCESS') });
});

it('unit-tests every alert both firing and not firing', () => {
  const tests = (parse(readFileSync(path.join(ALERTING_ROOT, 'rules.test.yml'), 'utf8')) as { tests: { alert_rule_test?: AlertTest[] }[] }).tests.flatMap((test) => test.alert_rule_test ?? []);
  const fired = new Set(tests.filter((test) => (test.exp_alerts ?? []).length > 0).map((test) => test.alertname));
  const quiet = new Set(tests.filter((test) => (test.exp_alerts ?? []).length === 0).map((test) => test.alertname));
  expect(alertNames.filter((name) => !fired.has(name))).toEqual([]);
  expect(alertNames.filter((name) => !quiet.has(name))).toEqual([]);
  // A test of an alert that no longer exists would pass while testing nothing.
  expect([...fired, ...quiet].filter((name) => !alertNames.includes(name))).toEqual([]);
});

it('gives every alert a severity, a summary, a description and a runbook section that exists', () => {
  const runbooks = readFileSync(path.join(REPO_ROOT, 'docs', 'runbooks.md'), 'utf8');
  // GitHub's anchors: the heading lowercased, punctuation but '-' and '_' dropped, spaces as '-'.
  const anchors = new Set([...runbooks.matchAll(/^#{1,6} (.+)$/gm)].map((match) => match[1]!.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-')));
  for (const rule of alerts) {
    expect({ alert: rule.alert, severity: rule.labels?.severity }).toEqual({ alert: rule.alert, severity: expect.stringMatching(/^(page|ticket)$/) });
    expect(Object.keys(rule.annotations ?? {}).sort()).toEqual(['description', 'runbook_url', 'summary']);
    const anchor = /^docs\/runbooks\.md#(.+)$/.exec(rule.annotations!.runbook_url!)?.[1];
    expect({ alert: rule.alert, anchor: anchor && anchors.has(anchor) ? anchor : `missing: ${rule.annotations!.runbook_url}` }).toEqual({ alert: rule.alert, anchor: rule.alert!.toLowerCase() });
  }
});

/** Every metric name a rule's expression reads (not functions, labels, recorded series or Prometheus' own `up`). */
function metricsRead(expr: string): string[] {
  const withoutStrings = expr.replace(/"(?:[^"\\]|\\.)*"/g, '""');
  const withoutLabels = withoutStrings.replace(/\{[^}]*\}/g, '{}').replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, '');
  // A selector is a name before its labels, its range, or the parenthesis that ends an aggregation's argument.
  const names = [...withoutLabels.matchAll(/\b([a-zA-Z_:][a-zA-Z0-9_:]*)\s*(?=[{[)])/g)].map((match) => match[1]!);
  return names.filter((name) => !name.startsWith('slo:') && name !== 'up');
}

/** The non-test sources of the libs and services. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'dist' ? [] : sources(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

/** Metrics one service owns: they must be registered in its sources, not merely somewhere. */
const REGISTERED_BY: Record<string, string> = {
  platform_refusals_total: 'services/auth',
  platform_refusal_in_force: 'services/auth',
  platform_out_of_credit: 'services/auth',
  oauth2_access_token_earliest_expiry_timestamp_seconds: 'services/auth',
};

/** Metrics of the exporters that watch the ingress's TLS certificates (cert-manager, the blackbox exporter). */
const EXPORTED_BY_OTHERS = new Set(['certmanager_certificate_expiration_timestamp_seconds', 'probe_ssl_earliest_cert_expiry']);

it('reads only metrics the services register (or the RabbitMQ plugin exports)', () => {
  const codeOf = (dirs: string[]) => dirs.flatMap((dir) => sources(path.join(REPO_ROOT, dir))).map((file) => readFileSync(file, 'utf8')).join('\n');
  const code = codeOf(['libs', 'services']);
  const read = [...new Set(rules.flatMap((rule) => metricsRead(rule.expr)))].sort();
  expect(read).toEqual(expect.arrayContaining(['http_request_duration_seconds_bucket', 'messages_consumed_total', 'messaging_consumers', 'platform_refusals_total', 'rabbitmq_detailed_queue_messages', 'tracking_provider_breakers']));
  const unknown = read.filter((name) => {
    if (name.startsWith('rabbitmq_detailed_queue_')) return name !== 'rabbitmq_detailed_queue_messages';
    if (EXPORTED_BY_OTHERS.has(name)) return false;
    const registered = name.replace(/_(bucket|count|sum)$/, '');
    const where = REGISTERED_BY[registered] ? codeOf([REGISTERED_BY[registered]]) : code;
    return !where.includes(`name: '${registered}'`) && !where.includes(`name: '${name}'`);
  });
  expect(unknown).toEqual([]);
});

it('has an example Prometheus configuration promtool accepts, with a job for every service', () => {
  const { status, output } = run('promtool', ['check', 'config', 'prometheus.example.yml']);
  expect({ status, output }).toEqual({ status: 0, output: expect.stringContaining('is valid prometheus config file syntax') });
  const config = parse(readFileSync(path.join(ALERTING_ROOT, 'prometheus.example.yml'), 'utf8')) as { scrape_configs: { job_name: string }[] };
  expect(config.scrape_configs.map((job) => job.job_name)).toEqual(['webhook-ingest', 'ticketing', 'auth', 'tracking', 'console', 'rabbitmq']);
});

it('has an example Alertmanager configuration amtool accepts, routing pages and tickets to their receivers', () => {
  const { status, output } = run('amtool', ['check-config', 'alertmanager.example.yml']);
  expect({ status, output }).toEqual({ status: 0, output: expect.stringContaining('SUCCESS') });
  const receiverOf = (labels: string[]) => run('amtool', ['config', 'routes', 'test', '--config.file=alertmanager.example.yml', ...labels]).stdout.trim();
  expect(receiverOf(['alertname=ServiceDown', 'severity=page'])).toBe('on-call');
  expect(receiverOf(['alertname=DeadLettersArriving', 'severity=ticket'])).toBe('tickets');
  for (const severity of new Set(alerts.map((rule) => rule.labels!.severity!))) expect(receiverOf([`severity=${severity}`])).toBe(severity === 'page' ? 'on-call' : 'tickets');
});

it('has the PrometheusRule of the overlays made from this rules file', () => {
  expect(staleProblems()).toEqual([]);
});
