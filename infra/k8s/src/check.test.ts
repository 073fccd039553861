import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { checkAll, checkOverlay, ensureKubectl, K8S_ROOT, type OverlayReport } from './check';
import { parse } from 'yaml';
import { RULES_PATH } from '../../alerting/src/prometheus-rule';
import { imageProblem } from './policy';
import { selects } from './selectors';

const SERVICES = ['webhook-ingest', 'ticketing', 'auth', 'tracking', 'console'];
let kubectl: string;
let reports: OverlayReport[];

// Installing kubectl, where it is missing, takes longer than a test.
beforeAll(() => {
  kubectl = ensureKubectl();
  reports = checkAll(K8S_ROOT, kubectl);
}, 300_000);

/** A copy of infra/k8s in a temporary folder, with `edits` applied (file, text to find, replacement). */
function brokenCopy(edits: [file: string, find: string | RegExp, replace: string][]): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'k8s-'));
  cpSync(K8S_ROOT, root, { recursive: true, filter: (source) => source !== path.join(K8S_ROOT, 'src') });
  for (const [file, find, replace] of edits) {
    const target = path.join(root, file);
    const text = readFileSync(target, 'utf8');
    const changed = text.replace(find, replace);
    if (changed === text) throw new Error(`edit of ${file} changed nothing`);
    writeFileSync(target, changed);
  }
  return root;
}

it('renders every overlay, and every object it yields is valid', () => {
  expect(reports.map((report) => report.overlay)).toEqual(['dev', 'prod']);
  for (const { overlay, objects, problems } of reports) {
    expect({ overlay, problems }).toEqual({ overlay, problems: [] });
    const names = (kind: string) => objects.filter((object) => object.kind === kind).map((object) => object.metadata.name).sort();
    expect(names('Deployment')).toEqual([...SERVICES].sort());
    expect(names('Job')).toEqual(['auth-migrate', 'ticketing-migrate', 'tracking-migrate']);
    expect(names('PodDisruptionBudget')).toEqual([...SERVICES].sort());
    expect(names('ScaledObject')).toEqual(['ticketing']);
    expect(names('HorizontalPodAutoscaler')).toEqual(SERVICES.filter((name) => name !== 'ticketing').sort());
    expect(names('Secret')).toEqual([]);
    expect(names('ServiceMonitor')).toEqual(['crm-services', 'rabbitmq']);
    expect(names('PrometheusRule')).toEqual(['crm']);
    for (const object of objects.filter((object) => object.kind !== 'Namespace')) expect(object.metadata.namespace).toBe(`crm-${overlay}`);
  }
  const [dev, prod] = reports;
  expect(dev!.objects.filter((object) => object.kind === 'StatefulSet').map((object) => object.metadata.name).sort()).toEqual(['postgres', 'rabbitmq']);
  expect(prod!.objects.filter((object) => ['RabbitmqCluster', 'Cluster', 'StatefulSet'].includes(object.kind)).map((object) => object.kind).sort()).toEqual(['Cluster', 'RabbitmqCluster']);
});

it('runs the migrations in a Job as the migrator, and the service as the app role only', () => {
  const [prod] = reports.filter((report) => report.overlay === 'prod');
  const envOf = (kind: string, name: string) => {
    const object = prod!.objects.find((candidate) => candidate.kind === kind && candidate.metadata.name === name)!;
    const spec = (object.spec as { template: { spec: { containers: { env: { name: string; valueFrom?: { secretKeyRef: { name: string } } }[] }[] } } }).template.spec;
    return spec.containers[0]!.env;
  };
  expect(envOf('Job', 'ticketing-migrate').find((env) => env.name === 'DATABASE_MIGRATION_URL')?.valueFrom?.secretKeyRef.name).toBe('ticketing-migration');
  expect(envOf('Deployment', 'ticketing').map((env) => env.name)).toContain('DATABASE_URL');
  expect(envOf('Deployment', 'ticketing').map((env) => env.name)).not.toContain('DATABASE_MIGRATION_URL');
});

it('refuses a broken manifest: a bad field type, an unknown operator field, a missing probe, a writable root, an unpinned image, a Secret', () => {
  const root = brokenCopy([
    ['base/ticketing.yaml', 'replicas: 2', 'replicas: two'],
    ['overlays/prod/rabbitmq-cluster.yaml', 'replicas: 3', 'replica: 3'],
    ['overlays/prod/postgres-cluster.yaml', 'instances: 3', 'instances: "3"'],
    ['base/auth.yaml', / {10}readinessProbe:\n.*\n.*\n.*\n.*\n/, ''],
    ['base/console.yaml', 'readOnlyRootFilesystem: true', 'readOnlyRootFilesystem: false'],
    ['overlays/prod/rabbitmq-cluster.yaml', /image: rabbitmq:3.13-management@sha256:[0-9a-f]+/, 'image: rabbitmq:3.13-management'],
    ['overlays/prod/namespace.yaml', /$/, '---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: leaked\nstringData:\n  CREDENTIALS_KEY: abc\n'],
  ]);
  const { problems } = checkOverlay(path.join(root, 'overlays', 'prod'), kubectl);
  const about = (start: string, text: string) => problems.some((problem) => problem.startsWith(start) && problem.includes(text));
  expect(about('Deployment/ticketing:', 'replicas must be integer')).toBe(true);
  expect(about('RabbitmqCluster/rabbitmq:', 'additional properties (replica)')).toBe(true);
  expect(about('Cluster/postgres:', '/spec/instances must be integer')).toBe(true);
  expect(about('Deployment/auth:', 'container auth has no readinessProbe')).toBe(true);
  expect(about('Deployment/console:', 'writable root filesystem')).toBe(true);
  expect(about('RabbitmqCluster/rabbitmq:', 'pinned by digest')).toBe(true);
  expect(about('Secret/leaked:', 'Secrets are not kept in the manifests')).toBe(true);
  expect(about('Secret/leaked:', 'no schema for v1 Secret')).toBe(true);
});

it('refuses names that resolve to nothing: a ConfigMap, a named port, a selector, an autoscaler target, the operator pods a policy expects', () => {
  const root = brokenCopy([
    ['base/console.yaml', 'configMapRef: { name: console-config }', 'configMapRef: { name: console-confg }'],
    ['base/tracking.yaml', '{ name: http, port: 3004, targetPort: http, protocol: TCP }', '{ name: http, port: 3004, targetPort: htp, protocol: TCP }'],
    ['base/auth.yaml', /(kind: HorizontalPodAutoscaler[\s\S]*?)name: auth\n {2}minReplicas/, '$1name: authh\n  minReplicas'],
    ['overlays/prod/postgres-cluster.yaml', '      app.kubernetes.io/name: postgres\n', '      app.kubernetes.io/name: pg\n'],
  ]);
  const { problems } = checkOverlay(path.join(root, 'overlays', 'prod'), kubectl);
  expect(problems).toEqual(
    expect.arrayContaining([
      'Deployment/console: container console reads ConfigMap console-confg, which the overlay does not have',
      'Service/tracking: port http targets htp, which no selected container names',
      'HorizontalPodAutoscaler/auth: scales Deployment authh, which the overlay does not have',
      'NetworkPolicy/postgres: its podSelector selects no pod of the overlay',
      'NetworkPolicy/migrations: a peer selector ({"matchLabels":{"app.kubernetes.io/name":"postgres"}}) selects no pod of the overlay',
    ]),
  );
  expect(problems.some((problem) => problem.startsWith('Deployment/auth: no HorizontalPodAutoscaler or ScaledObject scales it'))).toBe(true);
});

it('holds the rules of infra/alerting/rules.yml as they are, and scrapes every service and the broker', () => {
  const { groups } = parse(readFileSync(RULES_PATH, 'utf8')) as { groups: unknown[] };
  for (const { objects } of reports) {
    const rule = objects.find((object) => object.kind === 'PrometheusRule')!;
    expect(rule.spec?.groups).toEqual(groups);
    const monitor = objects.find((object) => object.kind === 'ServiceMonitor' && object.metadata.name === 'crm-services')!;
    const scraped = objects.filter((object) => object.kind === 'Service' && selects(monitor.spec!.selector as never, object.metadata.labels ?? {}));
    expect(scraped.map((service) => service.metadata.name).sort()).toEqual([...SERVICES].sort());
  }
});

it('refuses a ServiceMonitor whose Services do not name its port, or that selects none', () => {
  const root = brokenCopy([
    ['overlays/dev/rabbitmq.yaml', '    - { name: prometheus, port: 15692, targetPort: prometheus, protocol: TCP }\n', ''],
    ['monitoring/service-monitors.yaml', '      app.kubernetes.io/component: service\n', '      app.kubernetes.io/component: servce\n'],
  ]);
  const { problems } = checkOverlay(path.join(root, 'overlays', 'dev'), kubectl);
  expect(problems).toEqual(['ServiceMonitor/crm-services: selects no Service of the overlay', 'ServiceMonitor/rabbitmq: endpoint port prometheus is not named by every Service it selects']);
});

it('reports an overlay that does not render', () => {
  const root = brokenCopy([['overlays/dev/kustomization.yaml', '  - postgres.yaml', '  - missing.yaml']]);
  const { objects, problems } = checkOverlay(path.join(root, 'overlays', 'dev'), kubectl);
  expect(objects).toEqual([]);
  expect(problems).toEqual([expect.stringMatching(/^kustomize failed: .*missing\.yaml/s)]);
});

it('takes third-party images only by digest and ours only with a tag other than latest', () => {
  expect(imageProblem(`postgres:15@sha256:${'a'.repeat(64)}`)).toBeUndefined();
  expect(imageProblem('postgres:15')).toMatch(/not pinned by digest/);
  expect(imageProblem('registry.example.com/crm/auth:0.1.0')).toBeUndefined();
  expect(imageProblem('crm/auth')).toMatch(/has no tag/);
  expect(imageProblem('crm/auth:latest')).toMatch(/tagged latest/);
});

it('matches label selectors as Kubernetes does', () => {
  const labels = { 'app.kubernetes.io/name': 'auth' };
  expect(selects({}, labels)).toBe(true);
  expect(selects({ matchLabels: { 'app.kubernetes.io/name': 'auth' } }, labels)).toBe(true);
  expect(selects({ matchLabels: { 'app.kubernetes.io/name': 'console' } }, labels)).toBe(false);
  expect(selects({ matchExpressions: [{ key: 'app.kubernetes.io/name', operator: 'In', values: ['auth', 'tracking'] }] }, labels)).toBe(true);
  expect(selects({ matchExpressions: [{ key: 'app.kubernetes.io/name', operator: 'NotIn', values: ['auth'] }] }, labels)).toBe(false);
  expect(selects(undefined, labels)).toBe(false);
});
