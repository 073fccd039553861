/**
 * The conformance suite: the services against the platform's published examples in
 * CONFORMANCE_FIXTURES and its documentation in PLATFORM_DOCS. Not part of `pnpm test`
 * (jest.config.cjs matches only `*.test.ts`); infra/scripts/bootstrap.sh ci runs it when
 * CONFORMANCE_FIXTURES is set (.ci/run sets both when they sit beside the repository). The
 * documented deliveries go through the running stack, on the real broker and database.
 */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/infra/conformance'],
  testMatch: ['**/*.conformance.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022' } }] },
  moduleFileExtensions: ['ts', 'js', 'json'],
  globalSetup: '<rootDir>/libs/testing/src/global-setup.ts',
  // The stack's harnesses start the simulators given here, as in jest.config.cjs.
  setupFiles: ['<rootDir>/infra/testing/provide-simulators.ts'],
  globalTeardown: '<rootDir>/libs/testing/src/global-teardown.ts',
  testTimeout: 60000,
  forceExit: true,
};
