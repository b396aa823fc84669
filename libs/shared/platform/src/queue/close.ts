import { Worker } from 'bullmq';
import { settleWithin, within } from '../lifecycle/index.js';
import { quietAfterClose } from './bullmq-adapter.js';

/** A BullMQ queue, worker or QueueEvents. */
interface Closeable {
  close(force?: boolean): Promise<void>;
}

/** ioredis statuses of a client with a socket that ends when asked to. */
const LIVE_STATUSES = new Set(['connecting', 'connect', 'ready']);

/** How long a worker's graceful close waits for a connection that is reconnecting to come back. */
const RECONNECT_GRACE_MS = 2_000;

/**
 * Closes a BullMQ queue, worker or QueueEvents, waiting no longer than `timeoutMs` (a worker finishing its
 * active jobs may be given no bound: `undefined`), and lets its connections fail quietly afterwards
 * (`quietAfterClose`).
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
  const graceful = !force && (!(target instanceof Worker) || (await connectionsLive(target, RECONNECT_GRACE_MS)));
  const closed = target.close(!graceful).finally(() => quietAfterClose(target));
  if (timeoutMs === undefined) await closed;
  else await settleWithin(closed, timeoutMs);
}

/**
 * True once both of the worker's clients have a live socket; false when that takes longer than `withinMs`.
 * The clients come from BullMQ's public `client` and `waitUntilReady()`, which answer once they were first
 * ready (a worker whose Redis never answered has none to wait for), and their ioredis `status`.
 */
async function connectionsLive(worker: Worker, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  let clients: Array<{ status: string }>;
  try {
    clients = await within(Promise.all([worker.client, worker.waitUntilReady()]), withinMs);
  } catch {
    return false;
  }
  while (!clients.every((client) => LIVE_STATUSES.has(client.status))) {
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}
