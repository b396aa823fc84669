import {
  ROOT_CONTEXT,
  TraceFlags,
  context,
  defaultTextMapGetter,
  defaultTextMapSetter,
  trace,
  type Context,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { randomBytes } from 'node:crypto';

/** A W3C Trace Context as it travels in headers and is kept with stored work (the outbox row, an import). */
export interface TraceCarrier {
  traceparent: string;
  tracestate?: string;
}

type Headers = Record<string, string | string[] | undefined>;

/** OpenTelemetry's W3C propagator: the one reader and writer of `traceparent` and `tracestate`. */
const w3c = new W3CTraceContextPropagator();

const TRACING = Symbol.for('wms.tracing.started');

/** True once the tracing bootstrap has started the SDK in this process (OTEL_EXPORTER_OTLP_ENDPOINT set). */
export function tracingStarted(): boolean {
  return (globalThis as Record<symbol, unknown>)[TRACING] === true;
}

const FLUSH = Symbol.for('wms.tracing.flush');

/** Called by the bootstrap alone, once the SDK is registered, with how to export what is still buffered. */
export function markTracingStarted(flush: () => Promise<void>): void {
  (globalThis as Record<symbol, unknown>)[TRACING] = true;
  (globalThis as Record<symbol, unknown>)[FLUSH] = flush;
}

/** Exports the spans still buffered and stops the SDK; resolves at once with tracing off. */
export async function flushTracing(): Promise<void> {
  const flush = (globalThis as Record<symbol, unknown>)[FLUSH] as (() => Promise<void>) | undefined;
  await flush?.().catch(() => undefined);
}

function carrierOf(from: Context): TraceCarrier | undefined {
  const carrier: Record<string, string> = {};
  w3c.inject(from, carrier, defaultTextMapSetter);
  return carrier.traceparent ? (carrier as unknown as TraceCarrier) : undefined;
}

/** The OpenTelemetry context a stored or received carrier stands for (the root context when there is none). */
export function contextOf(carrier: TraceCarrier | null | undefined): Context {
  return carrier ? w3c.extract(ROOT_CONTEXT, carrier, defaultTextMapGetter) : ROOT_CONTEXT;
}

/**
 * The trace id of the `traceparent` a caller sent, read by the W3C propagator: a header that does not parse
 * (a wrong length, version ff, all-zero ids) is ignored, never refused, as Trace Context requires.
 */
export function callerTraceId(headers: Headers): string | undefined {
  return trace.getSpanContext(w3c.extract(ROOT_CONTEXT, headers, defaultTextMapGetter))?.traceId;
}

/** The active span's context (tracing on); undefined with tracing off or outside any span. */
export function activeSpanContext() {
  const span = trace.getSpan(context.active());
  return span?.spanContext();
}

/** The W3C context of the active span, to keep with work that goes on later (an event, an import). */
export function activeTraceCarrier(): TraceCarrier | undefined {
  return carrierOf(context.active());
}

/** The trace id a carrier names. */
export function traceIdOf(carrier: TraceCarrier | null | undefined): string | undefined {
  return trace.getSpanContext(contextOf(carrier))?.traceId;
}

/**
 * With tracing off nothing records spans, yet a caller's trace id still reaches the subscriber: a
 * `traceparent` of that trace with a span id of this service's own, written by the W3C propagator.
 */
export function forwardedTraceHeaders(traceId: string): TraceCarrier | undefined {
  const spanContext = { traceId, spanId: randomBytes(8).toString('hex'), traceFlags: TraceFlags.SAMPLED };
  return carrierOf(trace.setSpanContext(ROOT_CONTEXT, spanContext));
}
