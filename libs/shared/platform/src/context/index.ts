export { runWithContext, currentContext, type RequestContext } from './request-context.js';
export { TRACE_ID_PATTERN, childTraceparent, parseTraceparent, type TraceParent } from './traceparent.js';
