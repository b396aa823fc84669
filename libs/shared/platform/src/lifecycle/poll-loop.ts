export interface PollLoopOptions {
  /** The pause between two passes, unless something wakes the loop sooner. */
  intervalMs: number;
  /** Told of a failed pass (or of any error given to `reportError`), at most once per `errorEveryMs`. */
  onError: (error: unknown) => void;
  /** Default 10 s: a dependency that stays down is reported now and then, not on every pass. */
  errorEveryMs?: number;
}

/**
 * Runs `pass` again and again, pausing `intervalMs` between passes, until stopped. A failed pass is
 * reported (throttled) and the loop goes on. `wake` ends the pause at once; a wake that comes during a
 * pass skips the next pause, so no request to run is lost. `stop` lets the pass in progress finish.
 */
export class PollLoop {
  private active = false;
  private loop: Promise<void> | undefined;
  private endPause: (() => void) | undefined;
  private woken = false;
  private lastErrorAt = -Infinity;
  private readonly errorEveryMs: number;

  constructor(
    private readonly pass: () => Promise<void>,
    private readonly options: PollLoopOptions,
  ) {
    this.errorEveryMs = options.errorEveryMs ?? 10_000;
  }

  /** True from start until stop: a pass that works through a backlog stops early when this turns false. */
  get running(): boolean {
    return this.active;
  }

  start(): void {
    if (this.active) return;
    this.active = true;
    this.loop = this.run();
  }

  /** Stops after the pass in progress. */
  async stop(): Promise<void> {
    this.active = false;
    this.endPause?.();
    await this.loop;
  }

  /** Runs the next pass now instead of after the pause. */
  wake(): void {
    if (this.endPause) this.endPause();
    else this.woken = true;
  }

  /** Reports an error the way a failed pass is reported: at most once per `errorEveryMs`. */
  reportError(error: unknown): void {
    const now = Date.now();
    if (now - this.lastErrorAt < this.errorEveryMs) return;
    this.lastErrorAt = now;
    this.options.onError(error);
  }

  private async run(): Promise<void> {
    while (this.active) {
      try {
        await this.pass();
      } catch (error) {
        this.reportError(error);
      }
      await this.pause();
    }
  }

  private pause(): Promise<void> {
    if (this.woken || !this.active) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.endPause = undefined;
        resolve();
      };
      const timer = setTimeout(done, this.options.intervalMs);
      this.endPause = done;
    });
  }
}
