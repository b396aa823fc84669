import type { Logger } from '@wms/platform';
import type { RequestLogRepository } from './request-log.repository.js';

export interface RequestLogRetention {
  /** Days of the raw log kept: a day's partition is dropped once its whole day is older than this. */
  retentionDays: number;
  /** Days of hourly rollups kept (what the statistics and the overview read). */
  rollupRetentionDays: number;
  /** Partitions made ahead of today, so a write at midnight never waits for one. */
  daysAhead: number;
}

export const DEFAULT_REQUEST_LOG_RETENTION: RequestLogRetention = {
  retentionDays: 90,
  rollupRetentionDays: 400,
  daysAhead: 7,
};

export interface MaintenanceResult {
  created: string[];
  dropped: string[];
  settled: string[];
  rollupsDeleted: number;
}

const DAY_MS = 86_400_000;
const ROLLUP_PURGE_BATCH = 5_000;
/** A day's partition is settled (its index rebuilt) this long after its day ended: late batches are in. */
const SETTLE_AFTER_MS = 3_600_000;

/** The start (00:00 UTC) of the day holding `time`. */
export function utcDay(time: Date | number): Date {
  const ms = typeof time === 'number' ? time : time.getTime();
  return new Date(Math.floor(ms / DAY_MS) * DAY_MS);
}

/**
 * Keeps the partitioned request log in shape without cron or extension: makes the partitions of yesterday,
 * today and `daysAhead` days ahead, drops the partitions older than the retention whole, rebuilds the index
 * of each day that is over once (packed pages: about a third smaller), and deletes
 * expired rollup hours in small batches. One process at a time does it (an advisory lock); a replica that
 * finds it taken skips its turn.
 */
export class RequestLogMaintenance {
  constructor(
    private readonly repository: RequestLogRepository,
    private readonly logger: Logger,
    private readonly retention: RequestLogRetention = DEFAULT_REQUEST_LOG_RETENTION,
  ) {}

  /** One pass; null when another process is doing it. */
  async run(now = new Date()): Promise<MaintenanceResult | null> {
    const today = utcDay(now);
    const wanted = Array.from(
      { length: this.retention.daysAhead + 2 },
      (_, i) => new Date(today.getTime() + (i - 1) * DAY_MS),
    );
    const oldestKept = today.getTime() - this.retention.retentionDays * DAY_MS;
    const result = await this.repository.withPartitionLock(false, async (partitions) => {
      const existing = await partitions.list();
      const have = new Set(existing.map((partition) => partition.day.getTime()));
      const created: string[] = [];
      for (const day of wanted) {
        if (have.has(day.getTime())) continue;
        await partitions.add(day);
        created.push(day.toISOString().slice(0, 10));
      }
      const dropped: string[] = [];
      const settled: string[] = [];
      for (const partition of existing) {
        // A day's partition goes when its whole day is older than the retention.
        if (partition.day.getTime() + DAY_MS <= oldestKept) {
          await partitions.drop(partition);
          dropped.push(partition.name);
        } else if (!partition.settled && partition.day.getTime() + DAY_MS + SETTLE_AFTER_MS <= now.getTime()) {
          await partitions.settle(partition);
          settled.push(partition.name);
        }
      }
      return { created, dropped, settled };
    });
    if (!result) return null;
    let rollupsDeleted = 0;
    for (;;) {
      const deleted = await this.repository.purgeRollups(this.retention.rollupRetentionDays, ROLLUP_PURGE_BATCH);
      rollupsDeleted += deleted;
      if (deleted < ROLLUP_PURGE_BATCH) break;
    }
    if (result.created.length || result.dropped.length || result.settled.length || rollupsDeleted)
      this.logger.info({ ...result, rollupsDeleted }, 'api-key request log maintained');
    return { ...result, rollupsDeleted };
  }
}
