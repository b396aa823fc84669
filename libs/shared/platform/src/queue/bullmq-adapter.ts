/**
 * The one place that knows a BullMQ internal (bullmq 5.81, pinned by `bullmq-adapter.spec.ts`): where a
 * queue, worker or QueueEvents keeps its connections (`connection`, and a worker's `blockingConnection`).
 *
 * BullMQ's close removes every listener of a connection that may still be connecting; when that connection
 * then fails to come up (Redis away, the process shutting down), BullMQ emits the error on the closed
 * connection, and an 'error' nobody listens to surfaces as an unhandled rejection. BullMQ has no public
 * door to a closed object's connections, and its own 'error' event is no longer forwarded by then, so the
 * listener is put on the connections themselves.
 */
interface ConnectionSlot {
  on(event: 'error', listener: () => void): unknown;
}

type ConnectionSlots = Partial<Record<'connection' | 'blockingConnection', ConnectionSlot>>;

/** After `target.close()` has begun: its connections' late failures are ignored. */
export function quietAfterClose(target: object): void {
  const slots = target as ConnectionSlots;
  slots.connection?.on('error', () => undefined);
  slots.blockingConnection?.on('error', () => undefined);
}
