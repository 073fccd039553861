// Prints the violations the simulator wrote while the test suite ran (one JSON line each, see
// infra/simulators/social-platform/src/contract) grouped by operation, and fails when there is any.
import { existsSync, readFileSync } from 'node:fs';

const file = process.argv[2];
const lines = file && existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter((line) => line.trim() !== '') : [];
const groups = new Map();
for (const line of lines) {
  const v = JSON.parse(line);
  const key = `${v.method} ${v.operation ?? v.path} [${v.where}] ${v.message}`;
  groups.set(key, (groups.get(key) ?? 0) + 1);
}
for (const [key, count] of [...groups].sort()) console.log(`${String(count).padStart(4)} x ${key}`);
console.log(`contract check: ${lines.length} violations (${groups.size} distinct)`);
process.exit(lines.length === 0 ? 0 : 1);
