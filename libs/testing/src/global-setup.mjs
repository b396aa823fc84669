// Jest loads global set-up outside its module system, so this is plain ESM over the built
// @wms/shared (`npm test` builds first). Names must match test-database.ts.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { createSequelize, ensureDatabase, runMigrations } from '@wms/platform';
import { migrations } from '@wms/setup';

const serverUrl = process.env.TEST_DATABASE_SERVER_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * Builds one migrated template database per run; each test file copies it (CREATE DATABASE …
 * TEMPLATE), which is much faster than migrating a database per file.
 */
export default async function globalSetup() {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1, lazyConnect: true });
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    throw new Error(`Redis does not answer at ${redisUrl}: ${error.message}`);
  } finally {
    redis.disconnect();
  }
  const runId = randomBytes(4).toString('hex');
  // Jest's workers start after this and inherit the environment.
  process.env.WMS_TEST_RUN_ID = runId;
  const url = new URL(serverUrl);
  url.pathname = `/wms_tpl_${runId}`;
  await ensureDatabase(url.toString());
  const sequelize = createSequelize({ databaseUrl: url.toString(), databasePoolMax: 2 });
  try {
    await runMigrations(sequelize, url.toString(), undefined, migrations);
  } finally {
    await sequelize.close();
  }
}
