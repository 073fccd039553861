/**
 * The conformance suite: the services against the platform's published examples in
 * CONFORMANCE_FIXTURES. Not part of `pnpm test` (jest.config.cjs matches only `*.test.ts`);
 * infra/scripts/bootstrap.sh ci runs it when CONFORMANCE_FIXTURES is set (.ci/run sets it when
 * the examples sit beside the repository). Pure checks: no broker or database.
 */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/infra/conformance'],
  testMatch: ['**/*.conformance.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022' } }] },
  moduleFileExtensions: ['ts', 'js', 'json'],
};
