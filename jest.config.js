/** Jest runs the TypeScript sources as native ES modules (got is ESM-only), transpiled by swc. */
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'es6' } },
    ],
  },
  moduleNameMapper: {
    '^@wms/platform$': '<rootDir>/libs/shared/platform/src/index.ts',
    '^@wms/identity$': '<rootDir>/libs/shared/identity/src/index.ts',
    '^@wms/api-keys$': '<rootDir>/libs/shared/api-keys/src/index.ts',
    '^@wms/events$': '<rootDir>/libs/shared/events/src/index.ts',
    '^@wms/warehouse$': '<rootDir>/libs/shared/warehouse/src/index.ts',
    '^@wms/webhooks$': '<rootDir>/libs/shared/webhooks/src/index.ts',
    '^@wms/overview$': '<rootDir>/libs/shared/overview/src/index.ts',
    '^@wms/setup$': '<rootDir>/libs/shared/setup/src/index.ts',
    '^@wms/testing$': '<rootDir>/libs/testing/src/index.ts',
    '^@wms/gateway$': '<rootDir>/apps/gateway/src/app.ts',
    '^@wms/ingest-worker$': '<rootDir>/apps/ingest-worker/src/ingest.worker.ts',
    '^@wms/webhook-worker$': '<rootDir>/apps/webhook-worker/src/webhook-worker.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  testMatch: [
    '<rootDir>/apps/*/src/**/*.spec.ts',
    '<rootDir>/apps/admin-portal/e2e/**/*.spec.ts',
    '<rootDir>/libs/*/src/**/*.spec.ts',
    '<rootDir>/libs/shared/*/src/**/*.spec.ts',
    '<rootDir>/tools/**/*.spec.ts',
    '<rootDir>/packages/*/test/**/*.spec.ts',
  ],
  globalSetup: '<rootDir>/libs/testing/src/global-setup.mjs',
  globalTeardown: '<rootDir>/libs/testing/src/global-teardown.mjs',
  reporters: ['default', '<rootDir>/tools/jest-summary-reporter.cjs'],
  testTimeout: 30000,
  maxWorkers: 2,
  // A worker whose memory grew past this after a test file is replaced before the next one: ES modules under
  // vm are not freed between files, and one crash would fail the file that happened to run next.
  workerIdleMemoryLimit: '1GB',
};
