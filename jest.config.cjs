/** One jest run over the whole workspace; TypeScript is compiled by swc (types are checked by `pnpm typecheck`). */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/libs', '<rootDir>/services', '<rootDir>/infra'],
  testMatch: ['**/src/**/*.test.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022' } }] },
  // The simulators of the outside world, handed to test support (libs/testing's simulators.ts).
  setupFiles: ['<rootDir>/infra/testing/provide-simulators.ts'],
  globalSetup: '<rootDir>/libs/testing/src/global-setup.ts',
  globalTeardown: '<rootDir>/libs/testing/src/global-teardown.ts',
  testTimeout: 60000,
  // Two workers (the machine's two cores: most tests wait on the broker, the database or a browser); a worker whose
  // memory has grown past this after a file is started afresh, as modules and in-process services of earlier files add up.
  workerIdleMemoryLimit: '1GB',
  // A file whose teardown failed (its own failure is reported) must not keep the whole run from ending.
  forceExit: true,
  moduleFileExtensions: ['ts', 'js', 'json'],
};
