import { SpanKind, SpanStatusCode, context, trace, type Attributes, type Link, type Span } from '@opentelemetry/api';
import { contextOf, tracingStarted, type TraceCarrier } from './trace-context.js';

const tracer = trace.getTracer('wms');

/**
 * Runs later work of a stored request (a webhook delivery's attempt, an import's chunk) as a span of that
 * request's trace: the span's parent is the context kept with the work, and it links to whatever span runs
 * it now (the queue job), so a job leads to the traces it served and back. Work kept without a context
 * stays in the running span's trace. With tracing off it only calls `work`.
 */
export function inStoredTrace<T>(
  name: string,
  stored: TraceCarrier | null | undefined,
  attributes: Attributes,
  work: (span: Span | undefined) => Promise<T>,
): Promise<T> {
  if (!tracingStarted()) return work(undefined);
  const running = trace.getSpan(context.active());
  const parent = stored ? contextOf(stored) : context.active();
  const links: Link[] = stored && running ? [{ context: running.spanContext() }] : [];
  return tracer.startActiveSpan(name, { kind: SpanKind.INTERNAL, attributes, links }, parent, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.name : 'error' });
      throw error;
    } finally {
      span.end();
    }
  });
}
