import pLimit, { type LimitFunction } from 'p-limit';

/**
 * How many delivery attempts one worker process runs at once (WEBHOOK_CONCURRENCY), whether they came as
 * jobs of their own or in a batch job. Waiting callers are served first come, first served (p-limit's
 * queue). p-limit holds a slot for the run of one function; an attempt's turn outlives the function that
 * takes it (a permit is taken, then a subscriber's slot, and given back when the attempt is recorded or
 * when the slot is refused), so `acquire` holds a p-limit run open until its release is called.
 */
export class AttemptPermits {
  private readonly limit: LimitFunction;
  /** Counted here, not read from p-limit's activeCount, which drops a few microtasks after a release. */
  private held = 0;

  constructor(readonly size: number) {
    this.limit = pLimit(size);
  }

  /** Resolves with a release function once a permit is free; releasing twice gives back one permit. */
  acquire(): Promise<() => void> {
    return new Promise((granted) => {
      void this.limit(
        () =>
          new Promise<void>((release) => {
            let released = false;
            this.held += 1;
            granted(() => {
              if (released) return;
              released = true;
              this.held -= 1;
              release();
            });
          }),
      );
    });
  }

  /** Attempts running now. */
  get inUse(): number {
    return this.held;
  }
}
