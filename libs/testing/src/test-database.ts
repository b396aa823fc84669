import { randomBytes } from 'node:crypto';

/** The tests' PostgreSQL server and Redis; the same defaults as the service's. */
export const TEST_SERVER_URL = process.env.TEST_DATABASE_SERVER_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Each jest run has its own id, so concurrent runs never touch each other's databases. */
export function testRunId(): string {
  const id = process.env.WMS_TEST_RUN_ID;
  if (!id) throw new Error('WMS_TEST_RUN_ID is not set: run the tests through jest (globalSetup sets it)');
  return id;
}

export function databaseUrl(name: string): string {
  const url = new URL(TEST_SERVER_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

export function templateDatabaseName(runId: string): string {
  return `wms_tpl_${runId}`;
}

/** A database of this test file's own, copied from the run's migrated template. */
export function uniqueDatabaseName(label: string): string {
  const safe = label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .slice(0, 24);
  return `wms_t_${testRunId()}_${safe}_${randomBytes(3).toString('hex')}`;
}

export function uniqueRedisPrefix(label: string): string {
  return `wmst-${label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, 24)}-${randomBytes(4).toString('hex')}`;
}
