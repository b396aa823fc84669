/**
 * `npm run test:unit`: the specs that need no service (tools/test-tiers.mjs decides which, by what they import).
 * Every service URL points at a closed port, so a unit spec that reaches a service after all fails here instead
 * of passing by chance.
 */
import base from './jest.config.js';
import { unitTierSpecs } from './tools/test-tiers.mjs';

const closed = '127.0.0.1:9';
Object.assign(process.env, {
  DATABASE_URL: `postgres://postgres@${closed}/wms`,
  TEST_DATABASE_SERVER_URL: `postgres://postgres@${closed}/postgres`,
  REDIS_URL: `redis://${closed}`,
  TEST_REDIS_URL: `redis://${closed}`,
});

export default {
  ...base,
  testMatch: unitTierSpecs().map((file) => `<rootDir>/${file}`),
  globalSetup: undefined,
  globalTeardown: undefined,
};
