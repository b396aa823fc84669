import { AsyncLocalStorage } from 'node:async_hooks';

/** What every log line and every error answer of one request (or one job) can read. */
export interface RequestContext {
  requestId: string;
  jobId?: string;
  /**
   * The W3C trace id of the work: the active span's with tracing on, else the one a caller's `traceparent`
   * named; carried with jobs and events.
   */
  traceId?: string;
  /**
   * When a request's answer is due (`performance.now()` time): past it the request has been answered 503
   * and its statements are refused, so its transaction rolls back instead of committing work nobody waits for.
   */
  deadlineAt?: number;
}

const storage = new AsyncLocalStorage<RequestContext>();

export function runWithContext<T>(context: RequestContext, fn: () => T): T {
  return storage.run(context, fn);
}

export function currentContext(): RequestContext | undefined {
  return storage.getStore();
}
