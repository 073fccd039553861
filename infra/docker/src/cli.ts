/**
 * `pnpm check:docker`: what `docker compose config` and hadolint would say, without Docker
 * (check.ts). One line per file, every problem, exit code 1 on any.
 */
import { checkRepository } from './check';

const reports = checkRepository();
for (const { file, problems } of reports) {
  console.log(`${file}: ${problems.length ? `${problems.length} problem${problems.length === 1 ? '' : 's'}` : 'ok'}`);
  for (const problem of problems) console.log(`  ${file}: ${problem}`);
}
if (reports.some((report) => report.problems.length > 0)) process.exitCode = 1;
