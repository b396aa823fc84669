import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import { parseTraceparent, runWithContext, type Logger } from '@wms/shared';

/**
 * Gives each request its id (and the trace id of a valid W3C `traceparent`, when sent), runs the rest of the chain inside an AsyncLocalStorage context (so every
 * log line carries the id) and logs one line when the answer has gone out.
 */
export function requestContext(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const requestId = randomUUID();
    const started = process.hrtime.bigint();
    req.requestId = requestId;
    const traceId = parseTraceparent(req.get('traceparent'))?.traceId;
    if (traceId) req.traceId = traceId;
    res.setHeader('X-Request-Id', requestId);
    res.on('finish', () => {
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      const level = res.statusCode >= 500 ? 'error' : 'info';
      logger[level](
        {
          requestId,
          traceId,
          method: req.method,
          path: req.originalUrl.split('?')[0],
          statusCode: res.statusCode,
          durationMs,
        },
        'request completed',
      );
    });
    runWithContext(traceId ? { requestId, traceId } : { requestId }, next);
  };
}
