/**
 * How many delivery attempts one worker process runs at once (WEBHOOK_CONCURRENCY), whether they came as
 * jobs of their own or in a batch job. Waiting callers are served first come, first served.
 */
export class AttemptPermits {
  private free: number;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly size: number) {
    this.free = size;
  }

  /** Resolves with a release function once a permit is free; releasing twice gives back one permit. */
  async acquire(): Promise<() => void> {
    if (this.free > 0) this.free -= 1;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.free += 1;
    };
  }

  /** Attempts running now. */
  get inUse(): number {
    return this.size - this.free;
  }
}
