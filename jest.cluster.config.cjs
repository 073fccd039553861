/**
 * The tests against the local cluster of `pnpm cluster up` (docs/cluster.md): a standby passed
 * over, a broker node gone. Not part of `pnpm test` (jest.config.cjs matches only `*.test.ts`):
 * `pnpm cluster up && CLUSTER_TESTS=1 pnpm jest -c jest.cluster.config.cjs`.
 */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/infra/cluster'],
  testMatch: ['**/*.cluster-test.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022' } }] },
  moduleFileExtensions: ['ts', 'js', 'json'],
  testTimeout: 60000,
};
