import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  AppLifecycle,
  createLogger,
  dropDatabase,
  ensureDatabase,
  createSequelize,
  keyNodes,
  loadConfig,
  runMigrations,
  openRuntime,
  type Config,
  type RedisClient,
  type Runtime,
} from '@wms/platform';
import { migrations, runSeed } from '@wms/setup';
import { createServices, type Services, type ServicesWiring } from '@wms/gateway';
import { createGateway, createGatewayServer, type GatewayDeps } from '@wms/gateway';
import { startIngestWorker } from '@wms/ingest-worker';
import {
  TEST_REDIS_URL,
  databaseUrl,
  templateDatabaseName,
  testRunId,
  uniqueDatabaseName,
  uniqueRedisPrefix,
} from './test-database.js';

export const TEST_JWT_SECRET = 'test-secret-of-at-least-32-characters!';
/** The tests' secrets key ring: one key, id `t1` (32 bytes, base64). */
export const TEST_SECRETS_ENCRYPTION_KEYS = `t1:${Buffer.alloc(32, 7).toString('base64')}`;
export const TEST_ADMIN = { email: 'admin@wms.local', password: 'admin-password-1' };

/** Everything one test file needs: its own database and Redis key space, the services, and ways to start gateways. */
export interface TestContext {
  /** The environment this context's config was loaded from, for spawning real app processes over it. */
  env: NodeJS.ProcessEnv;
  config: Config;
  runtime: Runtime;
  services: Services;
  /** Starts a gateway over this context's database and Redis on a free loopback port. */
  startGateway(
    overrides?: Partial<Record<string, string>>,
    options?: Pick<GatewayDeps, 'apiKeys'> & ServicesWiring,
  ): Promise<TestGateway>;
  /** Starts an ingest worker in this process over this context's database and Redis prefix. */
  startIngestWorker(overrides?: Partial<Record<string, string>>): Promise<TestWorker>;
  /** Registers something the test started (a worker) that close() stops first. */
  onClose(hook: () => Promise<void>): void;
  close(): Promise<void>;
}

export interface TestWorker {
  close(): Promise<void>;
}

export interface TestGateway {
  url: string;
  runtime: Runtime;
  services: Services;
  /** Writes the buffered API-key request log now (it is otherwise written about once a second). */
  flushRequestLog(): Promise<void>;
  close(): Promise<void>;
  /**
   * Stops the gateway as a crash would: its database and Redis connections go first, so whatever its
   * in-flight requests still wanted to store is lost.
   */
  kill(): Promise<void>;
}

export function testEnv(
  databaseName: string,
  redisPrefix: string,
  overrides: Partial<Record<string, string>> = {},
): NodeJS.ProcessEnv {
  return {
    NODE_ENV: 'test',
    DATABASE_URL: databaseUrl(databaseName),
    DATABASE_POOL_MAX: '10',
    REDIS_URL: TEST_REDIS_URL,
    REDIS_KEY_PREFIX: redisPrefix,
    JWT_SECRET: TEST_JWT_SECRET,
    SECRETS_ENCRYPTION_KEYS: TEST_SECRETS_ENCRYPTION_KEYS,
    BCRYPT_ROUNDS: '4',
    SEED_ADMIN_EMAIL: TEST_ADMIN.email,
    SEED_ADMIN_PASSWORD: TEST_ADMIN.password,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    ...overrides,
  };
}

export interface TestContextOptions {
  /**
   * A PostgreSQL server of the test's own (e.g. the primary of startPostgresReplication) to hold the
   * database, migrated there; by default the database is a copy of the run's template on the shared server.
   */
  databaseServerUrl?: string;
}

/**
 * Creates this file's database from the run's template, seeds it, and opens connections.
 * Call in beforeAll; call close() in afterAll.
 */
export async function createTestContext(
  label: string,
  overrides: Partial<Record<string, string>> = {},
  options: TestContextOptions = {},
): Promise<TestContext> {
  const databaseName = uniqueDatabaseName(label);
  const redisPrefix = uniqueRedisPrefix(label);
  const ownServer = options.databaseServerUrl
    ? { DATABASE_URL: onServer(options.databaseServerUrl, databaseName) }
    : {};
  const env = testEnv(databaseName, redisPrefix, { ...ownServer, ...overrides });
  const config = loadConfig(env);
  if (options.databaseServerUrl) await createMigratedDatabase(config.databaseUrl);
  else await ensureDatabase(config.databaseUrl, { template: templateDatabaseName(testRunId()) });
  const logger = createLogger({ level: config.logLevel, name: `test-${label}` });
  const runtime = openRuntime(config, { name: `test-${label}`, redisRole: 'worker', logger });
  const services = createServices(runtime.db, config);
  await runSeed(runtime.db, config);
  const gateways: TestGateway[] = [];
  const workers: TestWorker[] = [];
  const closeHooks: Array<() => Promise<void>> = [];

  return {
    env,
    config,
    runtime,
    services,
    async startGateway(gatewayOverrides = {}, { ediOutbound, ...options } = {}) {
      const gatewayConfig = loadConfig({ ...env, ...gatewayOverrides });
      const gatewayRuntime = openRuntime(gatewayConfig, {
        name: 'test-gateway',
        redisRole: 'producer',
        databaseWork: 'requests',
        logger,
      });
      const gatewayServices = createServices(gatewayRuntime.db, gatewayConfig, { ediOutbound });
      await connected(gatewayRuntime);
      const lifecycle = new AppLifecycle();
      const { app, apiKeyAccess } = createGateway({
        runtime: gatewayRuntime,
        services: gatewayServices,
        lifecycle,
        ...options,
      });
      // The production server: requests and responses born with Express' prototypes.
      const server: Server = createGatewayServer(app);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as AddressInfo;
      const gateway: TestGateway = {
        url: `http://127.0.0.1:${port}`,
        runtime: gatewayRuntime,
        services: gatewayServices,
        flushRequestLog: () => apiKeyAccess.requestLog.flush(),
        async close() {
          await lifecycle.drain();
          server.closeAllConnections();
          await new Promise<void>((resolve) => server.close(() => resolve()));
          await lifecycle.close();
          // Also closes the guard's resources (request-log flusher, pub/sub subscriber).
          await gatewayRuntime.close();
        },
        async kill() {
          await gatewayRuntime.close();
          server.closeAllConnections();
          await new Promise<void>((resolve) => server.close(() => resolve()));
          await lifecycle.close();
        },
      };
      gateways.push(gateway);
      return gateway;
    },
    async startIngestWorker(workerOverrides = {}) {
      const workerConfig = loadConfig({ ...env, ...workerOverrides });
      const workerRuntime = openRuntime(workerConfig, {
        name: 'test-ingest-worker',
        redisRole: 'worker',
        databaseWork: 'jobs',
        logger,
      });
      const handle = startIngestWorker(workerRuntime, createServices(workerRuntime.db, workerConfig));
      await handle.worker.waitUntilReady();
      let closed = false;
      const worker: TestWorker = {
        async close() {
          if (closed) return;
          closed = true;
          await handle.close();
          await workerRuntime.close();
        },
      };
      workers.push(worker);
      return worker;
    },
    onClose(hook) {
      closeHooks.push(hook);
    },
    async close() {
      await Promise.allSettled(closeHooks.map((hook) => hook()));
      await Promise.allSettled(workers.map((worker) => worker.close()));
      await Promise.allSettled(gateways.map((gateway) => gateway.close()));
      await deleteRedisKeys(runtime.redis, redisPrefix);
      await runtime.close();
      await dropDatabase(config.databaseUrl);
    },
  };
}

function onServer(serverUrl: string, databaseName: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${databaseName}`;
  return url.toString();
}

async function createMigratedDatabase(url: string): Promise<void> {
  await ensureDatabase(url);
  const sequelize = createSequelize({ databaseUrl: url, databasePoolMax: 2 });
  try {
    await runMigrations(sequelize, url, undefined, migrations);
  } finally {
    await sequelize.close();
  }
}

/**
 * Waits until the gateway's Redis connection is ready (or has failed, for tests of a Redis outage), so
 * a test's first request is not answered by the in-process fallbacks of a connection still opening.
 */
async function connected(runtime: Runtime): Promise<void> {
  const { redis } = runtime;
  if (redis.status === 'ready') return;
  await new Promise<void>((resolve) => {
    const done = () => {
      redis.off('ready', done);
      redis.off('error', done);
      resolve();
    };
    redis.once('ready', done);
    redis.once('error', done);
  });
}

/** Deletes every key of a test's prefix, for a spec whose processes use Redis without a test context. */
export async function deleteRedisKeys(redis: RedisClient, prefix: string): Promise<void> {
  // Queue keys carry the prefix in braces on a cluster; on a cluster each master holds its own keys.
  for (const node of keyNodes(redis)) {
    for (const pattern of [`${prefix}:*`, `{${prefix}}:*`]) {
      let cursor = '0';
      do {
        const [next, keys] = await node.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
        cursor = next;
        // One DEL per key: on a cluster node, keys of different slots cannot share a command.
        if (keys.length) await node.pipeline(keys.map((key) => ['del', key])).exec();
      } while (cursor !== '0');
    }
  }
}
