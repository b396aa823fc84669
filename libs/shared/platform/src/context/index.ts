export { runWithContext, currentContext, type RequestContext } from './request-context.js';
export { deadlinePassedError, refusePastDeadline, timeLeft } from './deadline.js';
