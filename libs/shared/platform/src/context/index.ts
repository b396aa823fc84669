export { runWithContext, currentContext, type RequestContext } from './request-context.js';
