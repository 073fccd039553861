/**
 * docker-compose.yml fails closed: the images run in production mode, every secret comes from
 * .env with no fallback, and infra/scripts/make-env.sh writes every variable compose requires.
 * (No Docker engine runs here to start the stack; this checks the file compose would read.)
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';

const root = path.join(__dirname, '..', '..', '..');
const composeText = readFileSync(path.join(root, 'docker-compose.yml'), 'utf8');
const compose = parse(composeText) as { services: Record<string, { environment?: Record<string, string | number> }> };

const REFERENCE = /\$\{([A-Z0-9_]+)(:?[-?])?([^}]*)\}/g;
const references = [...composeText.matchAll(REFERENCE)].map(([, name, operator, rest]) => ({ name: name!, operator: operator ?? '', rest: rest ?? '' }));
const required = [...new Set(references.filter((ref) => ref.operator === ':?').map((ref) => ref.name))].sort();
const isSecret = (name: string) => /KEY|SECRET|TOKEN/.test(name);

const parseEnv = (text: string) =>
  Object.fromEntries(
    text
      .split('\n')
      .filter((line) => /^[A-Z0-9_]+=/.test(line))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );

it('requires every secret from the environment, with no fallback value', () => {
  const secrets = references.filter((ref) => isSecret(ref.name));
  expect(secrets.length).toBeGreaterThanOrEqual(7);
  for (const ref of secrets) expect({ name: ref.name, operator: ref.operator }).toEqual({ name: ref.name, operator: ':?' });
  expect(composeText).not.toMatch(/local-dev/);
});

it('runs no service in development mode', () => {
  for (const [name, service] of Object.entries(compose.services)) expect({ name, NODE_ENV: service.environment?.NODE_ENV }).not.toEqual({ name, NODE_ENV: 'development' });
});

it('lists every required variable in .env.example, empty, and make-env.sh writes them all', () => {
  const example = parseEnv(readFileSync(path.join(root, '.env.example'), 'utf8'));
  expect(Object.keys(example).sort()).toEqual(required);
  expect(Object.values(example).every((value) => value === '')).toBe(true);

  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'make-env-')), '.env');
  execFileSync('bash', [path.join(root, 'infra', 'scripts', 'make-env.sh')], { env: { ...process.env, ENV_FILE: file } });
  const written = parseEnv(readFileSync(file, 'utf8'));
  expect(Object.keys(written).sort()).toEqual(required);
  expect(Buffer.from(written.CREDENTIALS_KEY!, 'base64')).toHaveLength(32);
  // The console's token issues sessions and nothing else: it is no bootstrap token.
  expect(written.CRM_API_TOKENS!.split(',')).not.toContain(written.CONSOLE_SERVICE_TOKEN);
  // A second run leaves the file alone.
  expect(() => execFileSync('bash', [path.join(root, 'infra', 'scripts', 'make-env.sh')], { env: { ...process.env, ENV_FILE: file }, stdio: 'pipe' })).toThrow();
});
