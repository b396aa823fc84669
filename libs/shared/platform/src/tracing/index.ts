export {
  activeSpanContext,
  activeTraceCarrier,
  callerTraceId,
  contextOf,
  flushTracing,
  forwardedTraceHeaders,
  traceIdOf,
  tracingStarted,
  type TraceCarrier,
} from './trace-context.js';
export { inStoredTrace } from './spans.js';
export { queueTelemetry } from './queue-telemetry.js';
export { DEFAULT_SAMPLE_RATIO, DEFAULT_SAMPLER, OTLP_PROTOCOLS } from './settings.js';
