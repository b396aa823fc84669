import type { Logger } from '@wms/platform';
import type { ApiKeysRepository } from './api-keys.repository.js';
import {
  DEFAULT_REQUEST_LOG_RETENTION,
  RequestLogMaintenance,
  type MaintenanceResult,
  type RequestLogRetention,
} from './request-log-maintenance.js';
import type { OutcomeCount, RefusedOutcome, RequestLogEntry } from './request-log.repository.js';

export interface RequestLogOptions {
  flushIntervalMs: number;
  /** A batch this big is written at once rather than at the next tick. */
  batchSize: number;
  /** Beyond this many unwritten records (database away), the oldest are dropped, never the process. */
  maxBuffered: number;
  retention: RequestLogRetention;
}

export const DEFAULT_REQUEST_LOG_OPTIONS: RequestLogOptions = {
  flushIntervalMs: 1_000,
  batchSize: 500,
  maxBuffered: 50_000,
  retention: DEFAULT_REQUEST_LOG_RETENTION,
};

const LAST_USED_INTERVAL_MS = 60_000;
const HOUR_MS = 3_600_000;

/**
 * The API-key request log (the key's recent requests; its statistics read the hourly rollups written with
 * it): `record` only appends to memory; a timer writes batches with one statement (log and rollups), off
 * every request's path, and updates lastUsedAt at most once a minute per key. Calls the guard refused
 * (`countRefused`: rate limit, IP, origin) are only counted, per key and hour, and the counts added to the
 * rollups at the same flush, so a flood of them costs memory for one counter and no row each. A maintenance
 * pass at start makes the coming days' partitions before the first write; after that the maintenance queue
 * runs it once per REQUEST_LOG_MAINTENANCE_INTERVAL_MS over all replicas. `close` writes what is left.
 */
export class ApiKeyRequestLog {
  private buffer: RequestLogEntry[] = [];
  /** Refused calls not yet written, by key and hour (`<keyId> <hour ms>`). */
  private outcomes = new Map<string, OutcomeCount>();
  private readonly lastUsed = new Map<string, Date>();
  private readonly lastUsedWritten = new Map<string, number>();
  private flushing: Promise<void> | null = null;
  private readonly timer: NodeJS.Timeout;
  private dropped = 0;
  private closed = false;
  private maintaining: Promise<unknown> | null = null;
  readonly maintenance: RequestLogMaintenance;

  constructor(
    private readonly repository: Pick<ApiKeysRepository, 'requestLogs' | 'touchLastUsed'>,
    private readonly logger: Logger,
    private readonly options: RequestLogOptions = DEFAULT_REQUEST_LOG_OPTIONS,
  ) {
    this.maintenance = new RequestLogMaintenance(repository.requestLogs, logger, options.retention);
    this.timer = setInterval(() => void this.flush(), options.flushIntervalMs);
    this.timer.unref();
    void this.maintain();
  }

  record(entry: RequestLogEntry): void {
    if (this.closed) return;
    this.buffer.push(entry);
    this.lastUsed.set(entry.apiKeyId, entry.createdAt);
    if (this.buffer.length > this.options.maxBuffered) {
      const excess = this.buffer.length - this.options.maxBuffered;
      this.buffer.splice(0, excess);
      this.dropped += excess;
    }
    if (this.buffer.length >= this.options.batchSize) void this.flush();
  }

  /** Counts a call of the key that the guard refused; written to the rollups at the next flush. */
  countRefused(apiKeyId: string, outcome: RefusedOutcome, at = new Date()): void {
    if (this.closed) return;
    const hour = Math.floor(at.getTime() / HOUR_MS) * HOUR_MS;
    const id = `${apiKeyId} ${hour}`;
    let count = this.outcomes.get(id);
    if (!count) {
      // Keys × hours, so small; a bound all the same, as the log's buffer has one.
      if (this.outcomes.size >= this.options.maxBuffered) {
        this.dropped += 1;
        return;
      }
      count = { apiKeyId, hour: new Date(hour), rateLimited: 0, refused: 0 };
      this.outcomes.set(id, count);
    }
    count[outcome] += 1;
  }

  /** Writes everything recorded so far; resolves when it is in the database (or failed and was logged). */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
    if (this.buffer.length === 0 && this.lastUsed.size === 0 && this.outcomes.size === 0) return;
    let written = false;
    this.flushing = this.writeOnce()
      .then((ok) => {
        written = ok;
      })
      .finally(() => {
        this.flushing = null;
      });
    await this.flushing;
    // More than one batch waiting: keep going, unless the database refused (the timer retries later).
    if (written && this.buffer.length >= this.options.batchSize) await this.flush();
  }

  /** One maintenance pass (partitions ahead, expired ones dropped, old rollups deleted); a failure is logged. */
  async maintain(now = new Date()): Promise<MaintenanceResult | null> {
    const pass = this.maintenance.run(now).catch((error: unknown) => {
      this.logger.warn({ err: error }, 'api-key request log maintenance failed; retried by the maintenance queue');
      return null;
    });
    this.maintaining = pass;
    return pass;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await Promise.all([this.flush(), this.maintaining]);
    this.closed = true;
  }

  private async writeOnce(): Promise<boolean> {
    const batch = this.buffer.splice(0, this.options.batchSize);
    const now = Date.now();
    const usage: Array<{ id: string; at: Date }> = [];
    for (const [id, at] of this.lastUsed) {
      if (now - (this.lastUsedWritten.get(id) ?? 0) < LAST_USED_INTERVAL_MS) continue;
      usage.push({ id, at });
      this.lastUsedWritten.set(id, now);
      this.lastUsed.delete(id);
    }
    let written = true;
    try {
      await this.repository.requestLogs.insert(batch);
    } catch (error) {
      written = false;
      // Put the batch back (bounded by maxBuffered) so a short database outage loses nothing.
      this.buffer.unshift(...batch);
      this.logger.warn({ err: error, pending: this.buffer.length }, 'api-key request log write failed; will retry');
    }
    await this.writeOutcomes();
    try {
      await this.repository.touchLastUsed(usage);
    } catch (error) {
      for (const { id } of usage) this.lastUsedWritten.delete(id);
      this.logger.warn({ err: error }, 'api-key lastUsedAt update failed');
    }
    if (this.dropped > 0) {
      this.logger.warn({ dropped: this.dropped }, 'api-key request log buffer overflowed; oldest records dropped');
      this.dropped = 0;
    }
    return written;
  }

  /** Adds the refused calls counted so far to the rollups; on failure they are counted on, for the next flush. */
  private async writeOutcomes(): Promise<void> {
    if (this.outcomes.size === 0) return;
    const counts = this.outcomes;
    this.outcomes = new Map();
    try {
      await this.repository.requestLogs.addOutcomes([...counts.values()]);
    } catch (error) {
      for (const [id, count] of counts) {
        const later = this.outcomes.get(id);
        if (later) {
          later.rateLimited += count.rateLimited;
          later.refused += count.refused;
        } else this.outcomes.set(id, count);
      }
      this.logger.warn(
        { err: error, pending: this.outcomes.size },
        'api-key refused-call counts write failed; will retry',
      );
    }
  }
}
