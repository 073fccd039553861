import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * The import boundaries of eslint.config.mjs, checked by linting small sources as if they
 * sat at a path in the repository. ESLint runs in a child process: it loads its config with
 * a dynamic import(), which jest's module system does not support.
 */

const ROOT = join(__dirname, '../../..');

interface Case {
  filePath: string;
  code: string;
}

const LINT_CASES = `
const { ESLint } = require('eslint');
(async () => {
  const eslint = new ESLint({ cwd: process.argv[1] });
  const cases = JSON.parse(require('node:fs').readFileSync(0, 'utf8'));
  const results = [];
  for (const { filePath, code } of cases) {
    const [result] = await eslint.lintText(code, { filePath: require('node:path').join(process.argv[1], filePath) });
    results.push(result.messages.filter((m) => m.ruleId === process.argv[2]).map((m) => m.message));
  }
  process.stdout.write(JSON.stringify(results));
})().catch((error) => { console.error(error); process.exit(1); });
`;

/** The messages of one rule for each case, in order. */
function lintMessages(rule: string, cases: Case[]): string[][] {
  const out = execFileSync(process.execPath, ['-e', LINT_CASES, ROOT, rule], { cwd: ROOT, input: JSON.stringify(cases), encoding: 'utf8' });
  return JSON.parse(out) as string[][];
}

const source = (...specifiers: string[]) => specifiers.map((s, i) => `import * as m${i} from '${s}';\nexport const x${i} = m${i};\n`).join('');

describe('import boundaries (eslint.config.mjs)', () => {
  const violations: [string, Case, RegExp][] = [
    ['domain importing adapters', { filePath: 'services/auth/src/domain/x.ts', code: source('../adapters/accounts') }, /adapters depend on it/],
    ['domain importing http', { filePath: 'services/tracking/src/domain/x.ts', code: source('../http/params') }, /Only http\/ depends on the HTTP layer/],
    ['domain importing the database lib', { filePath: 'services/auth/src/domain/x.ts', code: source('@crm/db') }, /rules without I\/O/],
    ['domain importing the broker lib', { filePath: 'services/webhook-ingest/src/domain/x.ts', code: source('@crm/messaging') }, /rules without I\/O/],
    ['domain importing pg', { filePath: 'services/auth/src/domain/nested/x.ts', code: 'import type { Pool } from "pg";\nexport type P = Pool;\n' }, /rules without I\/O/],
    ['domain importing amqplib', { filePath: 'services/tracking/src/domain/x.ts', code: source('amqplib') }, /rules without I\/O/],
    ['domain importing express', { filePath: 'services/auth/src/domain/x.ts', code: source('express') }, /rules without I\/O/],
    ['an operation importing the database lib', { filePath: 'services/ticketing/src/operations/x.ts', code: 'import type { PoolClient } from "@crm/db";\nexport type C = PoolClient;\n' }, /Only adapters\/ .* touch the database/],
    ['a handler importing pg', { filePath: 'services/auth/src/handlers/x.ts', code: source('pg') }, /Only adapters\/ .* touch the database/],
    ['a route importing the database lib', { filePath: 'services/ticketing/src/http/x.ts', code: source('@crm/db') }, /Only adapters\/ .* touch the database/],
    ['a handler importing http', { filePath: 'services/auth/src/handlers/x.ts', code: source('../http/params') }, /Only http\/ depends on the HTTP layer/],
    ['an operation importing http', { filePath: 'services/auth/src/operations/x.ts', code: source('../http/errors') }, /Only http\/ depends on the HTTP layer/],
    ['a service importing another by package', { filePath: 'services/auth/src/service.ts', code: source('@crm/ticketing/src/domain/tickets') }, /reached through the broker/],
    ['a service importing another by path', { filePath: 'services/tracking/src/adapters/x.ts', code: source('../../../auth/src/domain/actions') }, /reached through the broker/],
    ["a service's domain importing another service", { filePath: 'services/auth/src/domain/x.ts', code: source('@crm/tracking') }, /reached through the broker/],
    ['a lib importing a service by package', { filePath: 'libs/http/src/x.ts', code: source('@crm/auth/src/config') }, /A lib never imports a service/],
    ['a lib importing a service by path', { filePath: 'libs/contracts/src/x.ts', code: source('../../../services/ticketing/src/domain/tickets') }, /A lib never imports a service/],
  ];

  const allowed: [string, Case][] = [
    ['domain importing domain and libs without I/O', { filePath: 'services/auth/src/domain/x.ts', code: source('./errors', '@crm/contracts', 'node:crypto', 'node:http') }],
    ['an adapter importing domain, db and pg', { filePath: 'services/auth/src/adapters/x.ts', code: source('../domain/actions', '@crm/db', 'pg') }],
    ['a handler importing operations, domain and the broker', { filePath: 'services/auth/src/handlers/x.ts', code: source('../operations/accounts', '../domain/errors', '@crm/messaging', '@crm/http') }],
    ['the service wiring importing the database lib', { filePath: 'services/ticketing/src/service.ts', code: source('@crm/db', './adapters/db/store') }],
    ['http importing operations and adapters', { filePath: 'services/auth/src/http/x.ts', code: source('../operations/accounts', '../adapters/accounts', 'express') }],
    ['a service importing its own package path and the simulators', { filePath: 'services/ticketing/src/service.ts', code: source('@crm/social-platform-simulator/src/ids', './http/routes') }],
    ['a lib importing another lib', { filePath: 'libs/http/src/x.ts', code: source('@crm/logging', 'express') }],
  ];

  const results = lintMessages('no-restricted-imports', [...violations.map(([, c]) => c), ...allowed.map(([, c]) => c)]);

  it.each(violations.map(([name, , message], i) => [name, message, i] as const))('refuses %s', (_name, message, i) => {
    expect(results[i]).toHaveLength(1);
    expect(results[i]![0]).toMatch(message);
  });

  it.each(allowed.map(([name], i) => [name, violations.length + i] as const))('allows %s', (_name, i) => {
    expect(results[i]).toEqual([]);
  });
});

describe('function length (eslint.config.mjs)', () => {
  const longFunction = `export function long(): number {\n  let n = 0;\n${'  n += 1;\n'.repeat(60)}  return n;\n}\n`;
  const [production, test] = lintMessages('max-lines-per-function', [
    { filePath: 'services/ticketing/src/operations/x.ts', code: longFunction },
    { filePath: 'services/ticketing/src/operations/x.test.ts', code: longFunction },
  ]);

  it('refuses a production function over 60 lines', () => {
    expect(production).toEqual([expect.stringMatching(/too many lines \(64\)/)]);
  });

  it('leaves tests alone', () => {
    expect(test).toEqual([]);
  });
});
