import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/*
 * Import boundaries (docs/architecture.md, "Services"). A service is reached only through
 * the broker, never imported; libs are shared by services, so they import none; inside a
 * service, `domain/` is rules without I/O and `operations/` and `handlers/` do not depend
 * on HTTP. Tests and test harnesses are exempt: they drive services from outside, and some
 * start a neighbouring service. ESLint applies only the last matching setting of a rule, so
 * each folder's setting repeats the service-wide restrictions.
 */
const TESTS = ['**/*.test.ts', '**/testing/**'];
const SERVICES = ['auth', 'console', 'ticketing', 'tracking', 'webhook-ingest'];

/** Imports of a service: its package name, or a path through its folder. */
const serviceImports = (names) => ({
  regex: `^@crm/(${names.join('|')})(/|$)|(^|/)(services/(${names.join('|')})|\\.\\./(${names.join('|')})/src)(/|$)`,
  message: 'A service is reached through the broker, never imported (docs/architecture.md, "Services").',
});
const relativeFolder = (folder, message) => ({ regex: `^\\.{1,2}/(.*/)?${folder}(/|$)`, message });
const IO_PACKAGES = ['@crm/db', '@crm/messaging', 'pg', 'amqplib', 'express'].map((name) => ({
  name,
  message: 'domain/ holds rules without I/O: database, broker and HTTP code belongs in adapters/ or http/.',
}));
/** A pool or a client never travels through use cases, handlers or routes: they call the stores of adapters/. */
const DATABASE_PACKAGES = ['@crm/db', 'pg'].map((name) => ({
  name,
  message: 'Only adapters/ (and the service wiring) touch the database: take a store from adapters/ instead of a pool or client.',
}));

function boundaries() {
  const configs = [
    {
      files: ['libs/**/*.ts'],
      ignores: TESTS,
      rules: { 'no-restricted-imports': ['error', { patterns: [{ ...serviceImports(SERVICES), message: 'A lib never imports a service.' }] }] },
    },
  ];
  for (const service of SERVICES) {
    const others = serviceImports(SERVICES.filter((name) => name !== service));
    const noHttp = relativeFolder('http', 'Only http/ depends on the HTTP layer; move what is shared out of http/.');
    const noAdapters = relativeFolder('adapters', 'domain/ holds rules without I/O; adapters depend on it, not the other way round.');
    const root = `services/${service}/src`;
    configs.push(
      { files: [`${root}/**/*.ts`], ignores: TESTS, rules: { 'no-restricted-imports': ['error', { patterns: [others] }] } },
      { files: [`${root}/operations/**/*.ts`, `${root}/handlers/**/*.ts`], ignores: TESTS, rules: { 'no-restricted-imports': ['error', { paths: DATABASE_PACKAGES, patterns: [others, noHttp] }] } },
      { files: [`${root}/http/**/*.ts`], ignores: TESTS, rules: { 'no-restricted-imports': ['error', { paths: DATABASE_PACKAGES, patterns: [others] }] } },
      { files: [`${root}/domain/**/*.ts`], ignores: TESTS, rules: { 'no-restricted-imports': ['error', { paths: IO_PACKAGES, patterns: [others, noHttp, noAdapters] }] } },
    );
  }
  // Test support sits below the simulators of the outside world: the test runner hands them over.
  configs.push({
    files: ['services/*/src/testing/**/*.ts', 'libs/*/src/testing/**/*.ts', 'libs/testing/src/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ regex: '^@crm/[a-z-]+-simulator(/|$)', message: "Test support does not import the simulators: use simulators() of @crm/testing." }] }] },
  });
  return configs;
}

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'error',
    },
  },
  ...boundaries(),
  {
    // Production functions stay short enough to read at once, the simulators', scripts' and
    // benchmarks' too; tests' describe blocks are exempt.
    files: ['services/*/src/**/*.ts', 'services/*/web/src/**/*.{ts,tsx}', 'libs/*/src/**/*.ts', 'infra/**/*.ts', 'bench/**/*.ts'],
    ignores: TESTS,
    rules: { 'max-lines-per-function': ['error', { max: 60, skipBlankLines: true, skipComments: true }] },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } },
  },
  {
    files: ['**/*.test.ts', '**/*.conformance.ts', 'bench/**', 'infra/scripts/**', '**/cli.ts', '**/*.mjs', '**/*.cjs'],
    rules: { 'no-console': 'off' },
  },
);
