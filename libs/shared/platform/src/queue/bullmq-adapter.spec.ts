import { createRequire } from 'node:module';
import { Queue } from 'bullmq';
import { TEST_REDIS_URL, uniqueRedisPrefix } from '@wms/testing';
import { createRedis } from '../redis/index.js';

/** The version whose connection fields `bullmq-adapter.ts` was checked against. */
const PINNED_BULLMQ = '5.81.5';

describe('the BullMQ adapter', () => {
  it(`is checked against bullmq ${PINNED_BULLMQ}: an upgrade re-reads where BullMQ keeps its connections first`, () => {
    const installed = (createRequire(import.meta.url)('bullmq/package.json') as { version: string }).version;

    expect(installed).toBe(PINNED_BULLMQ);
  });

  it('finds a queue’s connection where it looks for it', async () => {
    const redis = createRedis({ redisUrl: TEST_REDIS_URL }, 'producer', 'bullmq-adapter-spec');
    const queue = new Queue('bullmq-adapter-spec', { connection: redis, prefix: uniqueRedisPrefix('bullmq-adapter') });
    try {
      const connection = (queue as unknown as { connection?: { on?: unknown } }).connection;

      expect(typeof connection?.on).toBe('function');
    } finally {
      await queue.close();
      redis.disconnect();
    }
  });
});
