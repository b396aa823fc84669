import type { Logger } from '../logging/index.js';
import { flushTracing } from '../tracing/index.js';

/**
 * Runs `stop` once on SIGTERM or SIGINT and exits 0 when it finishes, or 1 when it throws or takes
 * longer than `timeoutMs`.
 */
export function installShutdown(logger: Logger, timeoutMs: number, stop: () => Promise<void>): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      logger.error({ timeoutMs }, 'shutdown timed out; exiting');
      process.exit(1);
    }, timeoutMs);
    timer.unref();
    // The spans of the last requests and jobs are exported before the process goes (a no-op with tracing off).
    stop()
      .then(flushTracing)
      .then(
        () => {
          logger.info('stopped');
          process.exit(0);
        },
        (error: unknown) => {
          logger.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
