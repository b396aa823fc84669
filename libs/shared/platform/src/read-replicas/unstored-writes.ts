import { AsyncResource } from 'node:async_hooks';
import { ACROSS_TENANTS } from './write-positions.js';

/** How often positions Redis did not take are offered to it again. */
const RETRY_MS = 500;

interface Held {
  position: bigint;
  /** When it would have expired in Redis: every replica in rotation has replayed it by then. */
  untilMs: number;
}

/**
 * The write positions this gateway could not store in Redis (it did not answer in time): kept here, so
 * that this gateway's reads of those tenants see them (a read takes the higher of Redis' position and this
 * one), and offered to Redis again every `RETRY_MS` until it takes them, so that every other gateway's
 * reads see them from then on. A position kept past its lifetime in Redis is dropped: every replica in
 * rotation has replayed it.
 */
export class UnstoredWrites {
  private readonly held = new Map<string, Held>();
  private timer: NodeJS.Timeout | null = null;
  private retrying = false;
  // Bound where the gateway made this (outside any request): the retries run in no request's context,
  // though the first hold happens in one.
  private readonly tick = AsyncResource.bind(() => void this.retry());

  constructor(
    private readonly store: (tenant: string, position: bigint) => Promise<void>,
    private readonly ttlMs: number,
  ) {}

  /** Keeps `position` as the last write of `tenant` (a tenant id, or ACROSS_TENANTS) until Redis takes it. */
  hold(tenant: string, position: bigint): void {
    const current = this.held.get(tenant);
    if (!current || current.position < position) {
      this.held.set(tenant, { position, untilMs: Date.now() + this.ttlMs });
    }
    this.timer ??= setInterval(this.tick, RETRY_MS);
    this.timer.unref();
  }

  /**
   * The position a read of `tenant` must see among those kept here (ACROSS_TENANTS: a read across tenants
   * sees every tenant's), or null. A tenant's read sees its own and the cross-tenant writes, as in Redis.
   */
  lastWrite(tenant: string): bigint | null {
    let last: bigint | null = null;
    const now = Date.now();
    for (const [writer, held] of this.held) {
      if (held.untilMs <= now) continue;
      const seen = tenant === ACROSS_TENANTS || writer === tenant || writer === ACROSS_TENANTS;
      if (seen && (last === null || held.position > last)) last = held.position;
    }
    return last;
  }

  get size(): number {
    return this.held.size;
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private async retry(): Promise<void> {
    if (this.retrying) return;
    this.retrying = true;
    try {
      for (const [tenant, held] of [...this.held]) {
        if (held.untilMs > Date.now()) {
          // Redis still away: the next round tries again.
          if (
            !(await this.store(tenant, held.position).then(
              () => true,
              () => false,
            ))
          )
            return;
        }
        // A newer position kept meanwhile stays until it is stored too.
        if (this.held.get(tenant) === held) this.held.delete(tenant);
      }
      if (this.held.size === 0) this.close();
    } finally {
      this.retrying = false;
    }
  }
}
