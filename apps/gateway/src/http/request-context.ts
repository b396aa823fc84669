import { randomUUID } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import { activeSpanContext, callerTraceId, explicitLineLogger, runWithContext, type Logger } from '@wms/platform';
import { setRequestIds } from './request-state.js';

/** An answer that has gone out: the request's path without its query, and the time from its arrival. */
export interface Answered {
  path: string;
  durationMs: number;
}

/** Told of every answer once it has gone out. */
export type AnsweredHook = (req: Request, res: Response, answered: Answered) => void;

/**
 * Gives each request its id and its trace id, runs the rest of the chain inside an AsyncLocalStorage context
 * (so every log line carries the id) and logs one line when the answer has gone out. With tracing on, the
 * trace is the HTTP server span's (it continues a caller's `traceparent`, or starts one here); with tracing
 * off, the trace id of a caller's valid `traceparent`, read by OpenTelemetry's W3C propagator. `onAnswered` shares that one
 * listener, clock and path (the API-key request log records through it).
 */
export function requestContext(logger: Logger, onAnswered?: AnsweredHook): RequestHandler {
  // The line's fields are fixed here, its request and trace ids among them, and the path carries no secret
  // (keys and tokens never go in a URL).
  const lines = explicitLineLogger(logger);
  return (req, res, next) => {
    const requestId = randomUUID();
    const started = process.hrtime.bigint();
    const span = activeSpanContext();
    const traceId = span?.traceId ?? callerTraceId(req.headers);
    setRequestIds(req, requestId, traceId);
    res.setHeader('X-Request-Id', requestId);
    res.on('finish', () => {
      const url = req.originalUrl;
      const query = url.indexOf('?');
      const answered = {
        path: query === -1 ? url : url.slice(0, query),
        durationMs: Number(process.hrtime.bigint() - started) / 1e6,
      };
      onAnswered?.(req, res, answered);
      const level = res.statusCode >= 500 ? 'error' : 'info';
      // Below the configured level the line is not even built.
      if (!lines.isLevelEnabled(level)) return;
      lines[level](
        {
          requestId,
          trace_id: traceId,
          span_id: span?.spanId,
          method: req.method,
          path: answered.path,
          statusCode: res.statusCode,
          durationMs: answered.durationMs,
        },
        'request completed',
      );
    });
    runWithContext(traceId ? { requestId, traceId } : { requestId }, next);
  };
}
