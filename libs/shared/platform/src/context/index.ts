export { runWithContext, currentContext, type RequestContext } from './request-context.js';
export { childTraceparent, parseTraceparent, type TraceParent } from './traceparent.js';
