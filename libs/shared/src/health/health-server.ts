import { createServer, type Server } from 'node:http';
import type { Sequelize } from 'sequelize';
import type { Redis } from 'ioredis';
import { checkDependencies } from './health.js';

/**
 * A minimal HTTP probe for worker processes, which have no API of their own: GET /health/live and
 * GET /health/ready (200 when PostgreSQL and Redis answer, else 503).
 */
export function startHealthServer(port: number, sequelize: Sequelize, redis: Redis): Promise<Server> {
  const server = createServer((req, res) => {
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'GET') return reply(405, { status: 'method not allowed' });
    if (req.url === '/health/live') return reply(200, { status: 'ok' });
    if (req.url === '/health/ready') {
      checkDependencies(sequelize, redis).then(
        (dependencies) => {
          const ready = dependencies.postgres === 'up' && dependencies.redis === 'up';
          reply(ready ? 200 : 503, { status: ready ? 'ready' : 'unavailable', dependencies });
        },
        () => reply(503, { status: 'unavailable' }),
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
