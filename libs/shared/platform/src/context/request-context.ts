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
}

const storage = new AsyncLocalStorage<RequestContext>();

export function runWithContext<T>(context: RequestContext, fn: () => T): T {
  return storage.run(context, fn);
}

export function currentContext(): RequestContext | undefined {
  return storage.getStore();
}
