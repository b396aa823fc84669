/**
 * `npm run test:unit`: the specs that need no service, found by what they import. A spec that needs
 * PostgreSQL, Redis or Chromium reaches them through the test harness (`@wms/testing`) or a client
 * (`pg`, `ioredis`, `sequelize`, `bullmq`, `playwright-core`); every other spec is a unit spec. The
 * portal's e2e folder (a browser or the built bundle) is not in this tier. Every service URL points at a
 * closed port, so a unit spec that reaches a service after all fails here instead of passing by chance.
 */
import { globSync, readFileSync } from 'node:fs';
import base from './jest.config.js';

const NEEDS_A_SERVICE =
  /from '(@wms\/testing|[./]*libs\/testing\/src\/[^']*|pg|ioredis|sequelize|bullmq|playwright-core)'/;
const SPECS = [
  'apps/*/src/**/*.spec.ts',
  'libs/*/src/**/*.spec.ts',
  'tools/**/*.spec.ts',
  'packages/*/test/**/*.spec.ts',
];

const unitSpecs = globSync(SPECS, { exclude: (path) => path.includes('node_modules') })
  .filter((file) => !NEEDS_A_SERVICE.test(readFileSync(file, 'utf8')))
  .sort();

const closed = '127.0.0.1:9';
Object.assign(process.env, {
  DATABASE_URL: `postgres://postgres@${closed}/wms`,
  TEST_DATABASE_SERVER_URL: `postgres://postgres@${closed}/postgres`,
  REDIS_URL: `redis://${closed}`,
  TEST_REDIS_URL: `redis://${closed}`,
});

export default {
  ...base,
  testMatch: unitSpecs.map((file) => `<rootDir>/${file}`),
  globalSetup: undefined,
  globalTeardown: undefined,
};
