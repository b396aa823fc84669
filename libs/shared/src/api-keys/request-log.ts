import type { Logger } from '../logging/index.js';
import type { ApiKeysRepository, RequestLogEntry } from './api-keys.repository.js';

export interface RequestLogOptions {
  flushIntervalMs: number;
  /** A batch this big is written at once rather than at the next tick. */
  batchSize: number;
  /** Beyond this many unwritten records (database away), the oldest are dropped, never the process. */
  maxBuffered: number;
  retentionDays: number;
  purgeIntervalMs: number;
}

export const DEFAULT_REQUEST_LOG_OPTIONS: RequestLogOptions = {
  flushIntervalMs: 1_000,
  batchSize: 500,
  maxBuffered: 50_000,
  retentionDays: 90,
  purgeIntervalMs: 60 * 60 * 1_000,
};

const LAST_USED_INTERVAL_MS = 60_000;
const PURGE_BATCH = 10_000;

/**
 * The API-key request log (what the key's stats are computed from): `record` only appends to memory; a timer
 * writes batches with one multi-row insert, off every request's path, and updates lastUsedAt at most once a
 * minute per key. The same timer purges records older than the retention period, hourly. `close` writes what is
 * left.
 */
export class ApiKeyRequestLog {
  private buffer: RequestLogEntry[] = [];
  private readonly lastUsed = new Map<string, Date>();
  private readonly lastUsedWritten = new Map<string, number>();
  private flushing: Promise<void> | null = null;
  private readonly timer: NodeJS.Timeout;
  private readonly purgeTimer: NodeJS.Timeout;
  private dropped = 0;
  private closed = false;

  constructor(
    private readonly repository: Pick<ApiKeysRepository, 'insertRequestLogs' | 'touchLastUsed' | 'purgeRequestLogs'>,
    private readonly logger: Logger,
    private readonly options: RequestLogOptions = DEFAULT_REQUEST_LOG_OPTIONS,
  ) {
    this.timer = setInterval(() => void this.flush(), options.flushIntervalMs);
    this.timer.unref();
    this.purgeTimer = setInterval(() => void this.purge(), options.purgeIntervalMs);
    this.purgeTimer.unref();
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

  /** Writes everything recorded so far; resolves when it is in the database (or failed and was logged). */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
    if (this.buffer.length === 0 && this.lastUsed.size === 0) return;
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

  async purge(): Promise<number> {
    let total = 0;
    try {
      for (;;) {
        const deleted = await this.repository.purgeRequestLogs(this.options.retentionDays, PURGE_BATCH);
        total += deleted;
        if (deleted < PURGE_BATCH) break;
      }
      if (total > 0)
        this.logger.info({ deleted: total, retentionDays: this.options.retentionDays }, 'api-key request log purged');
    } catch (error) {
      this.logger.warn({ err: error }, 'api-key request log purge failed; retrying at the next interval');
    }
    return total;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    clearInterval(this.purgeTimer);
    await this.flush();
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
      await this.repository.insertRequestLogs(batch);
    } catch (error) {
      written = false;
      // Put the batch back (bounded by maxBuffered) so a short database outage loses nothing.
      this.buffer.unshift(...batch);
      this.logger.warn({ err: error, pending: this.buffer.length }, 'api-key request log write failed; will retry');
    }
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
}
