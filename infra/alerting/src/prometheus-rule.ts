/**
 * The PrometheusRule of the Kubernetes overlays (infra/k8s/monitoring/prometheus-rule.yaml),
 * made from the one rules file (infra/alerting/rules.yml) so that the two never differ.
 * `pnpm alerts:k8s` writes it; `pnpm check:k8s` and src/alerts.test.ts fail when it is stale.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse, stringify } from 'yaml';

export const ALERTING_ROOT = path.join(__dirname, '..');
export const RULES_PATH = path.join(ALERTING_ROOT, 'rules.yml');
export const PROMETHEUS_RULE_PATH = path.join(ALERTING_ROOT, '..', 'k8s', 'monitoring', 'prometheus-rule.yaml');

const HEADER = `# Generated from infra/alerting/rules.yml by \`pnpm alerts:k8s\`: edit that file, then run it.
# The Prometheus Operator loads it when its Prometheus selects these labels (ruleSelector) and
# this namespace (ruleNamespaceSelector); docs/observability.md, "Alerts".
`;

/** The PrometheusRule holding every group of the rules file, as YAML. */
export function renderPrometheusRule(rulesText = readFileSync(RULES_PATH, 'utf8')): string {
  const { groups } = parse(rulesText) as { groups: unknown[] };
  const rule = {
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'PrometheusRule',
    metadata: {
      name: 'crm',
      labels: { 'app.kubernetes.io/name': 'crm-alerts', 'app.kubernetes.io/part-of': 'crm', 'app.kubernetes.io/component': 'monitoring' },
    },
    spec: { groups },
  };
  return HEADER + stringify(rule, { lineWidth: 0 });
}

/** Why the committed PrometheusRule is not what the rules file makes now (nothing when it is). */
export function staleProblems(): string[] {
  let committed = '';
  try {
    committed = readFileSync(PROMETHEUS_RULE_PATH, 'utf8');
  } catch {
    return [`${path.relative(process.cwd(), PROMETHEUS_RULE_PATH)} is missing: run pnpm alerts:k8s`];
  }
  return committed === renderPrometheusRule() ? [] : [`${path.relative(process.cwd(), PROMETHEUS_RULE_PATH)} differs from infra/alerting/rules.yml: run pnpm alerts:k8s`];
}
