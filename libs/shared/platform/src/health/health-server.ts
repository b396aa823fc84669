import { createServer, type Server } from 'node:http';
import type { Sequelize } from 'sequelize';
import type { RedisClient } from '../redis/index.js';
import { metricsResponse, type ProcessMetrics } from '../metrics/index.js';
import type { KeySpaceClaim } from '../key-space/index.js';
import { checkReadiness } from './health.js';

export interface HealthServerMetrics {
  metrics: ProcessMetrics;
  /** METRICS_TOKEN; when set, GET /metrics needs it as a bearer token. */
  token?: string;
  /** The process's Redis key space claim, compared on every readiness probe. */
  keySpace?: KeySpaceClaim;
}

/**
 * A minimal HTTP probe for worker processes, which have no API of their own: GET /health/live,
 * GET /health/ready (200 when PostgreSQL and Redis answer and the Redis key space is this database's, else
 * 503) and, when given, GET /metrics.
 */
export function startHealthServer(
  port: number,
  sequelize: Sequelize,
  redis: RedisClient,
  metrics?: HealthServerMetrics,
): Promise<Server> {
  const server = createServer((req, res) => {
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'GET') return reply(405, { status: 'method not allowed' });
    if (req.url === '/health/live') return reply(200, { status: 'ok' });
    if (req.url === '/health/ready') {
      checkReadiness(sequelize, redis, metrics?.keySpace).then(
        ({ ready, ...readiness }) =>
          reply(ready ? 200 : 503, { status: ready ? 'ready' : 'unavailable', ...readiness }),
        () => reply(503, { status: 'unavailable' }),
      );
      return;
    }
    if (req.url === '/metrics' && metrics) {
      metricsResponse(metrics.metrics, req.headers.authorization, metrics.token).then(
        ({ status, contentType, body, headers }) => {
          res.writeHead(status, { 'content-type': contentType, ...headers });
          res.end(body);
        },
        () => reply(500, { status: 'metrics unavailable' }),
      );
      return;
    }
    reply(404, { status: 'not found' });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, () => resolve(server));
  });
}
