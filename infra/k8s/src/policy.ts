/**
 * What the deployment promises beyond each kind's schema, checked over one overlay's objects:
 * every workload runs non-root with a read-only root filesystem, no privilege escalation, no
 * capabilities, requests and limits; every Deployment has startup, liveness and readiness
 * probes, a PodDisruptionBudget, an autoscaler (HPA or KEDA ScaledObject) and a NetworkPolicy
 * of its own beside a default deny; third-party images are pinned by digest, ours by a tag
 * (never latest); and no Secret is kept in the manifests.
 */
import { describe, type K8sObject } from './objects';
import { selects, type LabelSelector } from './selectors';

interface Container {
  name: string;
  image?: string;
  resources?: { requests?: Record<string, unknown>; limits?: Record<string, unknown> };
  securityContext?: { readOnlyRootFilesystem?: boolean; allowPrivilegeEscalation?: boolean; capabilities?: { drop?: string[] } };
  startupProbe?: unknown;
  livenessProbe?: unknown;
  readinessProbe?: unknown;
}

interface PodTemplate {
  metadata?: { labels?: Record<string, string> };
  spec?: { securityContext?: { runAsNonRoot?: boolean }; containers?: Container[]; initContainers?: Container[] };
}


const WORKLOADS = new Set(['Deployment', 'StatefulSet', 'Job']);
const DIGEST = /@sha256:[0-9a-f]{64}$/;
/** The project's own images (crm/<service>, under any registry), tagged by the overlays' `images`. */
const OURS = /(^|\/)crm\/[a-z-]+(:[^:/@]+)?$/;

const template = (object: K8sObject) => (object.spec?.template ?? {}) as PodTemplate;
const containersOf = (object: K8sObject) => [...(template(object).spec?.containers ?? []), ...(template(object).spec?.initContainers ?? [])];


export function imageProblem(image: string | undefined): string | undefined {
  if (!image) return 'has no image';
  if (DIGEST.test(image)) return undefined;
  if (!OURS.test(image)) return `image ${image} is not pinned by digest (name:tag@sha256:...)`;
  const tag = image.match(/:([^:/@]+)$/)?.[1];
  if (!tag) return `image ${image} has no tag: the overlay's images must give one`;
  if (tag === 'latest') return `image ${image} is tagged latest`;
  return undefined;
}

function containerProblems(container: Container, probes: boolean): string[] {
  const problems: string[] = [];
  const { requests = {}, limits = {} } = container.resources ?? {};
  for (const resource of ['cpu', 'memory']) {
    if (requests[resource] === undefined) problems.push(`requests no ${resource}`);
    if (limits[resource] === undefined) problems.push(`has no ${resource} limit`);
  }
  const security = container.securityContext ?? {};
  if (security.readOnlyRootFilesystem !== true) problems.push('has a writable root filesystem (readOnlyRootFilesystem: true)');
  if (security.allowPrivilegeEscalation !== false) problems.push('may escalate privileges (allowPrivilegeEscalation: false)');
  if (!(security.capabilities?.drop ?? []).includes('ALL')) problems.push('keeps capabilities (capabilities.drop: [ALL])');
  if (probes) for (const probe of ['startupProbe', 'livenessProbe', 'readinessProbe'] as const) if (!container[probe]) problems.push(`has no ${probe}`);
  const image = imageProblem(container.image);
  if (image) problems.push(image);
  return problems.map((problem) => `container ${container.name} ${problem}`);
}

function workloadProblems(object: K8sObject): string[] {
  const problems = containersOf(object).flatMap((container) => containerProblems(container, object.kind === 'Deployment'));
  if (template(object).spec?.securityContext?.runAsNonRoot !== true) problems.unshift('pods may run as root (securityContext.runAsNonRoot: true)');
  return problems;
}

/** A Deployment's PodDisruptionBudget, autoscaler and own NetworkPolicy. */
function deploymentCompanions(deployment: K8sObject, objects: K8sObject[]): string[] {
  const labels = template(deployment).metadata?.labels ?? {};
  const name = deployment.metadata.name;
  const problems: string[] = [];
  const of = (kind: string) => objects.filter((object) => object.kind === kind);
  if (!of('PodDisruptionBudget').some((pdb) => selects(pdb.spec?.selector as LabelSelector, labels))) problems.push('no PodDisruptionBudget selects its pods');
  const scaled =
    of('HorizontalPodAutoscaler').some((hpa) => (hpa.spec?.scaleTargetRef as { kind?: string; name?: string })?.name === name) ||
    of('ScaledObject').some((scaledObject) => (scaledObject.spec?.scaleTargetRef as { name?: string })?.name === name);
  if (!scaled) problems.push('no HorizontalPodAutoscaler or ScaledObject scales it');
  const own = of('NetworkPolicy').some((policy) => {
    const selector = policy.spec?.podSelector as LabelSelector | undefined;
    const specific = Object.keys(selector?.matchLabels ?? {}).length + (selector?.matchExpressions ?? []).length > 0;
    return specific && selects(selector, labels);
  });
  if (!own) problems.push('no NetworkPolicy of its own selects its pods');
  return problems;
}

const isDefaultDeny = (object: K8sObject) => {
  const spec = (object.spec ?? {}) as { podSelector?: LabelSelector; policyTypes?: string[]; ingress?: unknown[]; egress?: unknown[] };
  const everyPod = Object.keys(spec.podSelector?.matchLabels ?? {}).length === 0 && (spec.podSelector?.matchExpressions ?? []).length === 0;
  return object.kind === 'NetworkPolicy' && everyPod && ['Ingress', 'Egress'].every((type) => spec.policyTypes?.includes(type)) && !spec.ingress?.length && !spec.egress?.length;
};

function operatorImageProblems(object: K8sObject): string[] {
  const field = object.kind === 'RabbitmqCluster' ? 'image' : object.kind === 'Cluster' ? 'imageName' : undefined;
  if (!field) return [];
  const image = object.spec?.[field] as string | undefined;
  return image && DIGEST.test(image) ? [] : [`spec.${field} must name an image pinned by digest`];
}

export function policyProblems(objects: K8sObject[]): string[] {
  const problems = objects.flatMap((object) => {
    const own: string[] = [];
    if (object.kind === 'Secret') own.push('Secrets are not kept in the manifests: create them beside the overlay (infra/k8s/README.md)');
    if (WORKLOADS.has(object.kind)) own.push(...workloadProblems(object));
    if (object.kind === 'Deployment') own.push(...deploymentCompanions(object, objects));
    own.push(...operatorImageProblems(object));
    return own.map((problem) => `${describe(object)}: ${problem}`);
  });
  if (!objects.some(isDefaultDeny)) problems.push('no default-deny NetworkPolicy (podSelector {}, Ingress and Egress, no rules)');
  return problems;
}
