import { settleWithin } from '../lifecycle/index.js';

/** A BullMQ queue, worker or QueueEvents. */
interface Closeable {
  close(force?: boolean): Promise<void>;
}

/** What a BullMQ object keeps its connections in; not in its public types. */
type ConnectionSlots = Partial<
  Record<'connection' | 'blockingConnection', { on(event: 'error', listener: () => void): unknown }>
>;

/**
 * Closes a BullMQ queue, worker or QueueEvents, waiting no longer than `timeoutMs` (a worker finishing its
 * active jobs may be given no bound: `undefined`), and lets its connections
 * fail quietly afterwards. BullMQ's close removes every listener of a connection that may still be connecting;
 * when that connection then ends with an error (Redis away, the process shutting down), BullMQ emits the error
 * on the closed connection, and an 'error' nobody listens to surfaces as an unhandled rejection.
 */
export async function closeWithin(target: Closeable, timeoutMs: number | undefined, force = false): Promise<void> {
  const slots = target as unknown as ConnectionSlots;
  const quiet = () => {
    slots.connection?.on('error', () => undefined);
    slots.blockingConnection?.on('error', () => undefined);
  };
  const closed = target.close(force).finally(quiet);
  if (timeoutMs === undefined) await closed;
  else await settleWithin(closed, timeoutMs);
}
