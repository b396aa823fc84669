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
      const level = res.statusCode >= 500 ? 'error' : 'info';
      // Below the configured level the line is not even built.
      if (!logger.isLevelEnabled(level)) return;
      const url = req.originalUrl;
      const query = url.indexOf('?');
      logger[level](
        {
          requestId,
          traceId,
          method: req.method,
          path: query === -1 ? url : url.slice(0, query),
          statusCode: res.statusCode,
          durationMs: Number(process.hrtime.bigint() - started) / 1e6,
        },
        'request completed',
      );
    });
    runWithContext(traceId ? { requestId, traceId } : { requestId }, next);
  };
}
