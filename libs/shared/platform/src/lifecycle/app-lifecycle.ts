/**
 * Resources an app opens beside its runtime (queues, event streams), closed in two phases on shutdown:
 * `drain` before the HTTP server stops (so requests waiting on a job answer now instead of holding the
 * server open), `close` after it (hooks run newest first).
 */
export class AppLifecycle {
  private readonly drainHooks: (() => Promise<void> | void)[] = [];
  private readonly closeHooks: (() => Promise<void>)[] = [];
  private closed = false;

  onDrain(hook: () => Promise<void> | void): void {
    this.drainHooks.push(hook);
  }

  onClose(hook: () => Promise<void>): void {
    this.closeHooks.push(hook);
  }

  async drain(): Promise<void> {
    await Promise.allSettled(this.drainHooks.map((hook) => hook()));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.drain();
    for (const hook of [...this.closeHooks].reverse()) await hook().catch(() => undefined);
  }
}
