/**
 * The test tiers, derived from the files: every spec runs under `jest.config.js`; the ones that need no service
 * also form the unit tier (`npm run test:unit`). A spec needs PostgreSQL, Redis or Chromium when it reaches them
 * through the test harness (`@wms/testing`) or a client (`pg`, `ioredis`, `sequelize`, `bullmq`,
 * `playwright-core`, `amqplib`, `@nats-io/*`); the portal's e2e folder (a browser or the built bundle) is its own tier.
 */
import { globSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Where the default config looks for specs (`testMatch` without `<rootDir>/`). */
export const SPEC_PATTERNS = [
  'apps/*/src/**/*.spec.ts',
  'apps/admin-portal/e2e/**/*.spec.ts',
  'libs/*/src/**/*.spec.ts',
  'libs/shared/*/src/**/*.spec.ts',
  'tools/**/*.spec.ts',
  'packages/*/test/**/*.spec.ts',
];

export const E2E_PATTERN = 'apps/admin-portal/e2e/';

const NEEDS_A_SERVICE =
  /from '(@wms\/testing|[./]*libs\/testing\/src\/[^']*|pg|ioredis|sequelize|bullmq|playwright-core|amqplib|@nats-io\/[a-z-]+)'/;

const outsideDependencies = (path) => path.includes('node_modules') || path.includes('/dist/');

/** Every spec file of the repository, wherever it sits. */
export const specFilesOnDisk = () =>
  globSync('**/*.spec.{ts,tsx,js,mjs,cjs}', { cwd: root, exclude: outsideDependencies }).sort();

/** The specs the default config runs. */
export const defaultTierSpecs = () =>
  [
    ...new Set(SPEC_PATTERNS.flatMap((pattern) => globSync(pattern, { cwd: root, exclude: outsideDependencies }))),
  ].sort();

export const needsAService = (file) => NEEDS_A_SERVICE.test(readFileSync(`${root}/${file}`, 'utf8'));

/** The specs `npm run test:unit` runs: every spec outside the portal's e2e folder that needs no service. */
export const unitTierSpecs = () =>
  defaultTierSpecs().filter((file) => !file.startsWith(E2E_PATTERN) && !needsAService(file));
