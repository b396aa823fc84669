import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  AppLifecycle,
  createLogger,
  createServices,
  dropDatabase,
  ensureDatabase,
  loadConfig,
  openRuntime,
  runSeed,
  type Config,
  type Runtime,
  type Services,
} from '@wms/shared';
import { createApp } from '@wms/gateway';
import { startIngestWorker } from '@wms/ingest-worker';
import { TEST_REDIS_URL, databaseUrl, templateDatabaseName, testRunId, uniqueDatabaseName, uniqueRedisPrefix } from './test-database.js';

export const TEST_JWT_SECRET = 'test-secret-of-at-least-32-characters!';
export const TEST_ADMIN = { email: 'admin@wms.local', password: 'admin-password-1' };

/** Everything one test file needs: its own database and Redis key space, the services, and ways to start gateways. */
export interface TestContext {
  /** The environment this context's config was loaded from, for spawning real app processes over it. */
  env: NodeJS.ProcessEnv;
  config: Config;
  runtime: Runtime;
  services: Services;
  /** Starts a gateway over this context's database and Redis on a free loopback port. */
  startGateway(overrides?: Partial<Record<string, string>>): Promise<TestGateway>;
  /** Starts an ingest worker in this process over this context's database and Redis prefix. */
  startIngestWorker(overrides?: Partial<Record<string, string>>): Promise<TestWorker>;
  close(): Promise<void>;
}

export interface TestWorker {
  close(): Promise<void>;
}

export interface TestGateway {
  url: string;
  runtime: Runtime;
  services: Services;
  close(): Promise<void>;
  /**
   * Stops the gateway as a crash would: its database and Redis connections go first, so whatever its
   * in-flight requests still wanted to store is lost.
   */
  kill(): Promise<void>;
}

export function testEnv(databaseName: string, redisPrefix: string, overrides: Partial<Record<string, string>> = {}): NodeJS.ProcessEnv {
  return {
    NODE_ENV: 'test',
    DATABASE_URL: databaseUrl(databaseName),
    DATABASE_POOL_MAX: '5',
    REDIS_URL: TEST_REDIS_URL,
    REDIS_KEY_PREFIX: redisPrefix,
    JWT_SECRET: TEST_JWT_SECRET,
    BCRYPT_ROUNDS: '4',
    SEED_ADMIN_EMAIL: TEST_ADMIN.email,
    SEED_ADMIN_PASSWORD: TEST_ADMIN.password,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    ...overrides,
  };
}

/**
 * Creates this file's database from the run's template, seeds it, and opens connections.
 * Call in beforeAll; call close() in afterAll.
 */
export async function createTestContext(label: string, overrides: Partial<Record<string, string>> = {}): Promise<TestContext> {
  const databaseName = uniqueDatabaseName(label);
  const redisPrefix = uniqueRedisPrefix(label);
  const env = testEnv(databaseName, redisPrefix, overrides);
  const config = loadConfig(env);
  await ensureDatabase(config.databaseUrl, { template: templateDatabaseName(testRunId()) });
  const logger = createLogger({ level: config.logLevel, name: `test-${label}` });
  const runtime = openRuntime(config, { name: `test-${label}`, redisRole: 'worker', logger });
  const services = createServices(runtime.db, config);
  await runSeed(runtime.db, config);
  const gateways: TestGateway[] = [];
  const workers: TestWorker[] = [];

  return {
    env,
    config,
    runtime,
    services,
    async startGateway(gatewayOverrides = {}) {
      const gatewayConfig = loadConfig({ ...env, ...gatewayOverrides });
      const gatewayRuntime = openRuntime(gatewayConfig, { name: 'test-gateway', redisRole: 'producer', logger });
      const gatewayServices = createServices(gatewayRuntime.db, gatewayConfig);
      const lifecycle = new AppLifecycle();
      const server: Server = createServer(createApp({ runtime: gatewayRuntime, services: gatewayServices, lifecycle }));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as AddressInfo;
      const gateway: TestGateway = {
        url: `http://127.0.0.1:${port}`,
        runtime: gatewayRuntime,
        services: gatewayServices,
        async close() {
          await lifecycle.drain();
          server.closeAllConnections();
          await new Promise<void>((resolve) => server.close(() => resolve()));
          await lifecycle.close();
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
      const workerRuntime = openRuntime(workerConfig, { name: 'test-ingest-worker', redisRole: 'worker', logger });
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
    async close() {
      await Promise.allSettled(workers.map((worker) => worker.close()));
      await Promise.allSettled(gateways.map((gateway) => gateway.close()));
      await deleteRedisKeys(runtime, redisPrefix);
      await runtime.close();
      await dropDatabase(config.databaseUrl);
    },
  };
}

async function deleteRedisKeys(runtime: Runtime, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await runtime.redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length) await runtime.redis.del(...keys);
  } while (cursor !== '0');
}
