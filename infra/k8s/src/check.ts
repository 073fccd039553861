/**
 * Renders every Kustomize overlay of infra/k8s and checks every object it yields: against the
 * Kubernetes schemas (kubernetes-models), KEDA's (@kubernetes-models/keda), the Prometheus
 * Operator's (@kubernetes-models/prometheus-operator), and for the two
 * operators' resources, which no models package covers, against JSON Schemas written from their
 * documented fields (../schemas). Then the rules the deployment promises (policy.ts: probes,
 * requests and limits, a non-root read-only container, a PodDisruptionBudget and an autoscaler
 * per Deployment, third-party images pinned by digest, no Secret in the manifests), and the
 * names objects use for each other, resolved (references.ts).
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv, { type ValidateFunction } from 'ajv';
import { parseAllDocuments } from 'yaml';
import { ConfigMap, Namespace, Service } from 'kubernetes-models/v1';
import { Deployment, StatefulSet } from 'kubernetes-models/apps/v1';
import { Job } from 'kubernetes-models/batch/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { ScaledObject, TriggerAuthentication } from '@kubernetes-models/keda/keda.sh/v1alpha1';
import { PrometheusRule, ServiceMonitor } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1';
import { describe, type K8sObject } from './objects';
import { policyProblems } from './policy';
import { referenceProblems } from './references';

export const K8S_ROOT = path.join(__dirname, '..');

type Validate = (object: K8sObject) => string[];

/** A kubernetes-models class: its constructor takes the object, `validate()` throws what is wrong. */
type Model = new (data: never) => { validate(): void };

const byModel =
  (model: Model): Validate =>
  (object) => {
    try {
      new model(object as never).validate();
      return [];
    } catch (error) {
      return [(error as Error).message];
    }
  };

const ajv = new Ajv({ allErrors: true, strict: true });
const bySchema = (file: string): Validate => {
  const validate: ValidateFunction = ajv.compile(JSON.parse(readFileSync(path.join(K8S_ROOT, 'schemas', file), 'utf8')));
  return (object) => (validate(object) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message}${error.params && 'additionalProperty' in error.params ? ` (${String(error.params.additionalProperty)})` : ''}`));
};

/** Every kind the overlays may hold, with its validator; any other kind is refused. */
export const VALIDATORS: Record<string, Validate> = {
  'v1/ConfigMap': byModel(ConfigMap),
  'v1/Namespace': byModel(Namespace),
  'v1/Service': byModel(Service),
  'apps/v1/Deployment': byModel(Deployment),
  'apps/v1/StatefulSet': byModel(StatefulSet),
  'batch/v1/Job': byModel(Job),
  'policy/v1/PodDisruptionBudget': byModel(PodDisruptionBudget),
  'autoscaling/v2/HorizontalPodAutoscaler': byModel(HorizontalPodAutoscaler),
  'networking.k8s.io/v1/NetworkPolicy': byModel(NetworkPolicy),
  'keda.sh/v1alpha1/ScaledObject': byModel(ScaledObject),
  'keda.sh/v1alpha1/TriggerAuthentication': byModel(TriggerAuthentication),
  'monitoring.coreos.com/v1/ServiceMonitor': byModel(ServiceMonitor),
  'monitoring.coreos.com/v1/PrometheusRule': byModel(PrometheusRule),
  'rabbitmq.com/v1beta1/RabbitmqCluster': bySchema('rabbitmqcluster.schema.json'),
  'postgresql.cnpg.io/v1/Cluster': bySchema('cnpg-cluster.schema.json'),
};

const commandExists = (command: string) => {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

/**
 * kubectl, whose `kubectl kustomize` renders the overlays (the manifests keep to what its
 * oldest embedded kustomize, v2.0 in Debian's kubectl 1.20, understands). Installed from
 * Debian's kubernetes-client when missing and this runs as root.
 */
export function ensureKubectl(log: (line: string) => void = () => undefined): string {
  if (commandExists('kubectl')) return 'kubectl';
  if (process.getuid?.() !== 0 || !commandExists('apt-get')) {
    throw new Error('kubectl is missing: install it (Debian: apt-get install kubernetes-client) and run again');
  }
  log('kubectl is missing: installing Debian kubernetes-client');
  // Another process installing at the same time (a second test file) holds dpkg's lock: wait for it.
  const wait = ['-o', 'DPkg::Lock::Timeout=300'];
  execFileSync('apt-get', [...wait, 'update', '-qq'], { stdio: 'ignore' });
  execFileSync('apt-get', [...wait, 'install', '-y', '-qq', 'kubernetes-client'], { stdio: 'ignore', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  return 'kubectl';
}

/** `kubectl kustomize <dir>`, parsed: the objects the overlay would apply. */
export function renderOverlay(dir: string, kubectl = 'kubectl'): K8sObject[] {
  const text = execFileSync(kubectl, ['kustomize', dir], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 32 * 1024 * 1024 });
  return parseAllDocuments(text)
    .map((document) => document.toJS() as K8sObject | null)
    .filter((object): object is K8sObject => object !== null);
}

/** Each object against the schema of its kind. */
export function schemaProblems(objects: K8sObject[]): string[] {
  return objects.flatMap((object) => {
    const validate = VALIDATORS[`${object.apiVersion}/${object.kind}`];
    if (!validate) return [`${describe(object)}: no schema for ${object.apiVersion} ${object.kind} (add one to VALIDATORS in infra/k8s/src/check.ts)`];
    return validate(object).map((problem) => `${describe(object)}: ${problem}`);
  });
}

/** The overlays: every folder of infra/k8s/overlays. */
export const overlays = (root = K8S_ROOT) =>
  readdirSync(path.join(root, 'overlays'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();

export interface OverlayReport {
  overlay: string;
  objects: K8sObject[];
  problems: string[];
}

/** Renders one overlay and checks what it yields; a render that fails is a problem too. */
export function checkOverlay(dir: string, kubectl = 'kubectl'): Omit<OverlayReport, 'overlay'> {
  let objects: K8sObject[];
  try {
    objects = renderOverlay(dir, kubectl);
  } catch (error) {
    const stderr = (error as { stderr?: Buffer | string }).stderr;
    return { objects: [], problems: [`kustomize failed: ${String(stderr ?? (error as Error).message).trim()}`] };
  }
  return { objects, problems: [...schemaProblems(objects), ...policyProblems(objects), ...referenceProblems(objects)] };
}

/** Every overlay under root/overlays, rendered and checked. */
export function checkAll(root = K8S_ROOT, kubectl = 'kubectl'): OverlayReport[] {
  return overlays(root).map((overlay) => ({ overlay, ...checkOverlay(path.join(root, 'overlays', overlay), kubectl) }));
}
