import { SpanKind, type ContextManager, type Span, type Telemetry, type Tracer } from 'bullmq';
import { BullMQOtel } from 'bullmq-otel';
import { tracingStarted } from './trace-context.js';

/** A span BullMQ may start and end that records nothing and leaves the context as it was. */
const unrecorded: Span = {
  setSpanOnContext: (ctx: unknown) => ctx,
  setAttribute: () => undefined,
  setAttributes: () => undefined,
  addEvent: () => undefined,
  recordException: () => undefined,
  end: () => undefined,
};

/**
 * bullmq-otel's tracer with BullMQ's housekeeping left out: a worker's every fetch (`getNextJob`), stalled
 * check and timer would otherwise be a trace of its own every few seconds per queue, idle or not. What is
 * kept is what a request's trace needs: the add (producer) and the processing (consumer) of each job.
 */
class JobTracer implements Tracer {
  constructor(private readonly inner: Tracer) {}

  startSpan(name: string, options?: { kind: number }, ctx?: unknown): Span {
    const kind = options?.kind;
    return kind === SpanKind.PRODUCER || kind === SpanKind.CONSUMER
      ? this.inner.startSpan(name, options, ctx)
      : unrecorded;
  }
}

class JobTelemetry implements Telemetry {
  readonly tracer: Tracer;
  readonly contextManager: ContextManager;

  constructor() {
    const otel = new BullMQOtel('wms');
    this.tracer = new JobTracer(otel.tracer);
    this.contextManager = otel.contextManager;
  }
}

let shared: JobTelemetry | undefined;

/**
 * The `telemetry` option of every Queue and Worker: with tracing started, a job's add is a span of the
 * request that adds it and carries that context in the job, and its processing continues it in the worker;
 * with tracing off, none (BullMQ then runs no telemetry code at all).
 */
export function queueTelemetry(): Telemetry | undefined {
  if (!tracingStarted()) return undefined;
  shared ??= new JobTelemetry();
  return shared;
}
