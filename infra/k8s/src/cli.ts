/**
 * `pnpm check:k8s`: renders every overlay of infra/k8s and validates every object (check.ts);
 * prints one line per overlay, every problem found, and exits 1 if there is any; also when the
 * PrometheusRule is not what infra/alerting/rules.yml makes (`pnpm alerts:k8s`).
 */
import { staleProblems } from '../../alerting/src/prometheus-rule';
import { checkAll, ensureKubectl } from './check';

const kubectl = ensureKubectl((line) => console.log(line));
const reports = checkAll(undefined, kubectl);
for (const { overlay, objects, problems } of reports) {
  console.log(`${overlay}: ${objects.length} objects, ${problems.length ? `${problems.length} problem${problems.length === 1 ? '' : 's'}` : 'all valid'}`);
  for (const problem of problems) console.log(`  ${overlay}: ${problem}`);
}
const stale = staleProblems();
for (const problem of stale) console.log(`  monitoring: ${problem}`);
if (reports.length === 0 || reports.some((report) => report.problems.length > 0) || stale.length > 0) process.exitCode = 1;
