/** The shape of a rendered Kubernetes object, as far as the checks read it. */
export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  spec?: Record<string, unknown>;
}

export const describe = (object: K8sObject) => `${object.kind}/${object.metadata?.name ?? '?'}`;
