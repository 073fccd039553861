/** `pnpm alerts:k8s`: writes infra/k8s/monitoring/prometheus-rule.yaml from infra/alerting/rules.yml. */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { PROMETHEUS_RULE_PATH, renderPrometheusRule } from './prometheus-rule';

writeFileSync(PROMETHEUS_RULE_PATH, renderPrometheusRule());
console.log(`wrote ${path.relative(process.cwd(), PROMETHEUS_RULE_PATH)}`);
