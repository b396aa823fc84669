import type { ConnectionOptions, DefaultJobOptions } from 'bullmq';

/**
 * Finished jobs are removed by age and count so Redis does not grow without end; failed ones are kept
 * longer for inspection.
 */
export const defaultJobOptions: DefaultJobOptions = {
  removeOnComplete: { age: 3_600, count: 10_000 },
  removeOnFail: { age: 7 * 24 * 3_600, count: 10_000 },
};

export interface QueueSettings {
  connection: ConnectionOptions;
  /** BullMQ key prefix: the deployment's REDIS_KEY_PREFIX, or a test file's own. */
  prefix: string;
}
