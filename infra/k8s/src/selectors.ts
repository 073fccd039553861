/** A Kubernetes label selector, and whether it picks pods with given labels. */
export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

/** Whether a selector picks pods with these labels (an empty selector picks every pod). */
export function selects(selector: LabelSelector | undefined, labels: Record<string, string>): boolean {
  if (!selector) return false;
  const byLabels = Object.entries(selector.matchLabels ?? {}).every(([key, value]) => labels[key] === value);
  const byExpressions = (selector.matchExpressions ?? []).every((expression) => {
    const value = labels[expression.key];
    if (expression.operator === 'In') return value !== undefined && (expression.values ?? []).includes(value);
    if (expression.operator === 'NotIn') return value === undefined || !(expression.values ?? []).includes(value);
    if (expression.operator === 'Exists') return value !== undefined;
    return value === undefined; // DoesNotExist
  });
  return byLabels && byExpressions;
}
