/**
 * The names the objects of one overlay use for each other, resolved: a misspelt name is valid
 * to every schema and breaks the deployment all the same. ConfigMaps a pod reads, named
 * ports of probes and Services, what a Service, a PodDisruptionBudget or a NetworkPolicy
 * selects (the pods of our workloads and those the operators make for a RabbitmqCluster and a
 * CloudNativePG Cluster), what an autoscaler scales and the TriggerAuthentication it uses,
 * the Services a ServiceMonitor scrapes and their ports.
 */
import { describe, type K8sObject } from './objects';
import { selects, type LabelSelector } from './selectors';

interface Port {
  name?: string;
  containerPort: number;
}

interface Container {
  name: string;
  ports?: Port[];
  envFrom?: { configMapRef?: { name: string } }[];
  env?: { name: string; valueFrom?: { configMapKeyRef?: { name: string; key: string } } }[];
  startupProbe?: { httpGet?: { port: number | string } };
  livenessProbe?: { httpGet?: { port: number | string } };
  readinessProbe?: { httpGet?: { port: number | string } };
}

interface Pods {
  owner: string;
  labels: Record<string, string>;
  containers: Container[];
}

const WORKLOADS = new Set(['Deployment', 'StatefulSet', 'Job']);

/** The pods an overlay makes: its workloads', and the operators' for their resources. */
export function podsOf(objects: K8sObject[]): Pods[] {
  return objects.flatMap((object): Pods[] => {
    if (WORKLOADS.has(object.kind)) {
      const template = (object.spec?.template ?? {}) as { metadata?: { labels?: Record<string, string> }; spec?: { containers?: Container[]; initContainers?: Container[] } };
      return [{ owner: describe(object), labels: template.metadata?.labels ?? {}, containers: [...(template.spec?.containers ?? []), ...(template.spec?.initContainers ?? [])] }];
    }
    // The RabbitMQ Cluster Operator labels its pods app.kubernetes.io/name: <cluster name>.
    if (object.kind === 'RabbitmqCluster') return [{ owner: describe(object), labels: { 'app.kubernetes.io/name': object.metadata.name, 'app.kubernetes.io/part-of': 'rabbitmq' }, containers: [] }];
    // CloudNativePG labels its pods cnpg.io/cluster: <name>, plus spec.inheritedMetadata.labels.
    if (object.kind === 'Cluster') {
      const inherited = (object.spec?.inheritedMetadata as { labels?: Record<string, string> } | undefined)?.labels ?? {};
      return [{ owner: describe(object), labels: { ...inherited, 'cnpg.io/cluster': object.metadata.name }, containers: [] }];
    }
    return [];
  });
}

function containerReferences(pods: Pods, configMaps: Map<string, Record<string, string>>): string[] {
  const problems: string[] = [];
  for (const container of pods.containers) {
    const ports = new Set((container.ports ?? []).map((port) => port.name).filter(Boolean));
    for (const source of container.envFrom ?? []) {
      if (source.configMapRef && !configMaps.has(source.configMapRef.name)) problems.push(`container ${container.name} reads ConfigMap ${source.configMapRef.name}, which the overlay does not have`);
    }
    for (const variable of container.env ?? []) {
      const ref = variable.valueFrom?.configMapKeyRef;
      if (ref && !(configMaps.get(ref.name) ?? {})[ref.key]) problems.push(`container ${container.name} reads ${ref.key} of ConfigMap ${ref.name}, which the overlay does not have`);
    }
    for (const probe of ['startupProbe', 'livenessProbe', 'readinessProbe'] as const) {
      const port = container[probe]?.httpGet?.port;
      if (typeof port === 'string' && !ports.has(port)) problems.push(`container ${container.name}'s ${probe} uses port ${port}, which it does not name`);
    }
  }
  return problems;
}

function serviceReferences(service: K8sObject, pods: Pods[]): string[] {
  const spec = (service.spec ?? {}) as { selector?: Record<string, string>; ports?: { name?: string; targetPort?: number | string }[] };
  const selected = pods.filter((candidate) => selects({ matchLabels: spec.selector ?? {} }, candidate.labels));
  if (selected.length === 0) return ['selects no pod of the overlay'];
  const named = new Set(selected.flatMap((candidate) => candidate.containers.flatMap((container) => (container.ports ?? []).map((port) => port.name))));
  // Operators' pods name their own ports: only ours can be checked.
  if (selected.every((candidate) => candidate.containers.length === 0)) return [];
  return (spec.ports ?? []).filter((port) => typeof port.targetPort === 'string' && !named.has(port.targetPort)).map((port) => `port ${port.name ?? '?'} targets ${String(port.targetPort)}, which no selected container names`);
}

function peerSelectors(policy: K8sObject): LabelSelector[] {
  const spec = (policy.spec ?? {}) as { ingress?: { from?: { podSelector?: LabelSelector; namespaceSelector?: unknown }[] }[]; egress?: { to?: { podSelector?: LabelSelector; namespaceSelector?: unknown }[] }[] };
  const peers = [...(spec.ingress ?? []).flatMap((rule) => rule.from ?? []), ...(spec.egress ?? []).flatMap((rule) => rule.to ?? [])];
  // A peer with a namespaceSelector picks pods of other namespaces: not ours to resolve.
  return peers.filter((peer) => peer.podSelector && !peer.namespaceSelector).map((peer) => peer.podSelector!);
}

function policyReferences(policy: K8sObject, pods: Pods[]): string[] {
  const problems: string[] = [];
  const selector = policy.spec?.podSelector as LabelSelector | undefined;
  const any = (candidate: LabelSelector) => pods.some((pod) => selects(candidate, pod.labels));
  if (selector && !any(selector)) problems.push('its podSelector selects no pod of the overlay');
  for (const peer of peerSelectors(policy)) if (!any(peer)) problems.push(`a peer selector (${JSON.stringify(peer)}) selects no pod of the overlay`);
  return problems;
}

function scalingReferences(object: K8sObject, objects: K8sObject[]): string[] {
  const has = (kind: string, name: string | undefined) => objects.some((candidate) => candidate.kind === kind && candidate.metadata.name === name);
  const target = object.spec?.scaleTargetRef as { kind?: string; name?: string } | undefined;
  const problems: string[] = [];
  if (!has(target?.kind ?? 'Deployment', target?.name)) problems.push(`scales ${target?.kind ?? 'Deployment'} ${target?.name}, which the overlay does not have`);
  for (const trigger of (object.spec?.triggers ?? []) as { authenticationRef?: { name: string } }[]) {
    if (trigger.authenticationRef && !has('TriggerAuthentication', trigger.authenticationRef.name)) problems.push(`a trigger uses TriggerAuthentication ${trigger.authenticationRef.name}, which the overlay does not have`);
  }
  return problems;
}

/** The Services of an overlay with their labels and port names, counting the one the RabbitMQ Cluster Operator makes for a RabbitmqCluster. */
function servicesOf(objects: K8sObject[]): { labels: Record<string, string>; ports: string[] }[] {
  return objects.flatMap((object) => {
    if (object.kind === 'Service') return [{ labels: object.metadata.labels ?? {}, ports: ((object.spec?.ports ?? []) as { name?: string }[]).map((port) => port.name ?? '') }];
    // Its client Service is named and labelled after the cluster, with the plugin's port `prometheus` (15692).
    if (object.kind === 'RabbitmqCluster') return [{ labels: { 'app.kubernetes.io/name': object.metadata.name, 'app.kubernetes.io/component': 'rabbitmq', 'app.kubernetes.io/part-of': 'rabbitmq' }, ports: ['amqp', 'management', 'prometheus'] }];
    return [];
  });
}

/** A ServiceMonitor selects at least one Service of the overlay, and each of its endpoints' ports is named by every Service it selects. */
function monitorReferences(monitor: K8sObject, objects: K8sObject[]): string[] {
  const spec = (monitor.spec ?? {}) as { selector?: LabelSelector; endpoints?: { port?: string }[] };
  const selected = servicesOf(objects).filter((service) => selects(spec.selector ?? {}, service.labels));
  if (selected.length === 0) return ['selects no Service of the overlay'];
  return (spec.endpoints ?? []).filter((endpoint) => endpoint.port && selected.some((service) => !service.ports.includes(endpoint.port!))).map((endpoint) => `endpoint port ${endpoint.port} is not named by every Service it selects`);
}

export function referenceProblems(objects: K8sObject[]): string[] {
  const pods = podsOf(objects);
  const configMaps = new Map(objects.filter((object) => object.kind === 'ConfigMap').map((object) => [object.metadata.name, ((object as { data?: Record<string, string> }).data ?? {}) as Record<string, string>]));
  return objects.flatMap((object) => {
    const own: string[] = [];
    if (WORKLOADS.has(object.kind)) own.push(...containerReferences(pods.find((candidate) => candidate.owner === describe(object))!, configMaps));
    if (object.kind === 'Service') own.push(...serviceReferences(object, pods));
    if (object.kind === 'NetworkPolicy') own.push(...policyReferences(object, pods));
    if (object.kind === 'PodDisruptionBudget' && !pods.some((pod) => selects(object.spec?.selector as LabelSelector, pod.labels))) own.push('selects no pod of the overlay');
    if (object.kind === 'HorizontalPodAutoscaler' || object.kind === 'ScaledObject') own.push(...scalingReferences(object, objects));
    if (object.kind === 'ServiceMonitor') own.push(...monitorReferences(object, objects));
    return own.map((problem) => `${describe(object)}: ${problem}`);
  });
}
