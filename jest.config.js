import { readFileSync } from 'node:fs';
import { SPEC_PATTERNS } from './tools/test-tiers.mjs';

/** Each `@wms/*` name resolves to the source tsconfig.base.json maps it to, so a new library needs no line here. */
const { paths } = JSON.parse(readFileSync(new URL('./tsconfig.base.json', import.meta.url), 'utf8')).compilerOptions;
const workspaceModules = Object.fromEntries(
  Object.entries(paths).map(([name, [target]]) => [`^${name}$`, `<rootDir>/${target.replace(/^\.\//, '')}`]),
);

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
    ...workspaceModules,
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  testMatch: SPEC_PATTERNS.map((pattern) => `<rootDir>/${pattern}`),
  globalSetup: '<rootDir>/libs/testing/src/global-setup.mjs',
  globalTeardown: '<rootDir>/libs/testing/src/global-teardown.mjs',
  reporters: ['default', '<rootDir>/tools/jest-summary-reporter.cjs'],
  testTimeout: 30000,
  maxWorkers: 2,
  // A worker whose memory grew past this after a test file is replaced before the next one: ES modules under
  // vm are not freed between files, and one crash would fail the file that happened to run next.
  workerIdleMemoryLimit: '1GB',
};
