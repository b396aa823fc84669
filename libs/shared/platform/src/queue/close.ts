import { settleWithin } from '../lifecycle/index.js';

/** A BullMQ queue, worker or QueueEvents. */
interface Closeable {
  close(force?: boolean): Promise<void>;
}

/** A BullMQ connection as it keeps its ioredis client; not in its public types. */
interface ConnectionSlot {
  on(event: 'error', listener: () => void): unknown;
  _client?: { status: string };
}

/** What a BullMQ object keeps its connections in; not in its public types. */
type ConnectionSlots = Partial<Record<'connection' | 'blockingConnection', ConnectionSlot>>;

/** ioredis statuses of a client with a socket that ends when asked to. */
const LIVE_STATUSES = new Set(['connecting', 'connect', 'ready']);

/** How long a worker's graceful close waits for a connection that is reconnecting to come back. */
const RECONNECT_GRACE_MS = 2_000;

/**
 * Closes a BullMQ queue, worker or QueueEvents, waiting no longer than `timeoutMs` (a worker finishing its
 * active jobs may be given no bound: `undefined`), and lets its connections
 * fail quietly afterwards. BullMQ's close removes every listener of a connection that may still be connecting;
 * when that connection then ends with an error (Redis away, the process shutting down), BullMQ emits the error
 * on the closed connection, and an 'error' nobody listens to surfaces as an unhandled rejection.
 *
 * A worker's graceful close is forced when its connections are not back within RECONNECT_GRACE_MS. BullMQ's
 * graceful close first disconnects the blocking connection and waits for ioredis' 'end' event, then QUITs
 * both connections. A client parked in `reconnecting` (Redis unreachable, or a Sentinel failover still
 * finding the new primary) has no socket: ioredis never emits 'end' for it, and its QUIT waits in the offline
 * queue, so the close would never return (taskforcesh/bullmq#4656 and #4065, open upstream). Without Redis no
 * active job can record its outcome anyway. A forced close gives the jobs back: their locks expire and
 * another worker runs them again, which every job here allows (bulk jobs write once, deliveries are at
 * least once).
 */
export async function closeWithin(target: Closeable, timeoutMs: number | undefined, force = false): Promise<void> {
  const slots = target as unknown as ConnectionSlots;
  const quiet = () => {
    slots.connection?.on('error', () => undefined);
    slots.blockingConnection?.on('error', () => undefined);
  };
  const graceful = !force && (!slots.blockingConnection || (await connectionsLive(slots, RECONNECT_GRACE_MS)));
  const closed = target.close(!graceful).finally(quiet);
  if (timeoutMs === undefined) await closed;
  else await settleWithin(closed, timeoutMs);
}

/** True once every connection of the worker has a live socket; false when that takes longer than `withinMs`. */
async function connectionsLive(slots: ConnectionSlots, withinMs: number): Promise<boolean> {
  const live = () =>
    [slots.connection, slots.blockingConnection].every(
      (slot) => !slot?._client || LIVE_STATUSES.has(slot._client.status),
    );
  const deadline = Date.now() + withinMs;
  while (!live()) {
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}
