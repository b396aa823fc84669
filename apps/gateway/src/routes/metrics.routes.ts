import type { RequestHandler } from 'express';
import { metricsResponse, type ProcessMetrics } from '@wms/platform';

/** GET /metrics for Prometheus: the bearer METRICS_TOKEN when one is set (always in production). */
export function metricsRoute(metrics: ProcessMetrics, token: string | undefined): RequestHandler {
  return async (req, res) => {
    const answer = await metricsResponse(metrics, req.headers.authorization, token);
    res
      .status(answer.status)
      .set(answer.headers ?? {})
      .type(answer.contentType)
      .send(answer.body);
  };
}
