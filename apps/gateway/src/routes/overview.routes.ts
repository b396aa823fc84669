import { type Router } from 'express';
import type { Queue } from 'bullmq';
import { within } from '@wms/platform';
import type { TokenService } from '@wms/identity';
import type { QueueDepth } from '@wms/overview';
import type { Services } from '../services.js';
import { GUARDED, adminRouter, ok, type AdminEndpoint } from './admin-route.js';

/** How long the overview waits for Redis before showing the queues as unavailable. */
const QUEUE_COUNT_TIMEOUT_MS = 1_000;

async function depthOf(name: string, queue: Queue): Promise<QueueDepth> {
  try {
    const counts = await within(
      queue.getJobCounts('wait', 'prioritized', 'paused', 'active', 'delayed', 'failed'),
      QUEUE_COUNT_TIMEOUT_MS,
    );
    return {
      name,
      available: true,
      waiting: (counts.wait ?? 0) + (counts.prioritized ?? 0) + (counts.paused ?? 0),
      active: counts.active ?? 0,
      delayed: counts.delayed ?? 0,
      failed: counts.failed ?? 0,
    };
  } catch {
    return { name, available: false, waiting: 0, active: 0, delayed: 0, failed: 0 };
  }
}

interface Deps {
  services: Pick<Services, 'overview'>;
  queues: { ingest: Queue; webhook: Queue };
}

/**
 * GET /api/v1/overview, declared once: the admin portal's summary for any signed-in user; each part is
 * present only when the user may read its module (see OverviewService). Queue depth comes from BullMQ's job
 * counts.
 */
export const OVERVIEW_ROUTES: ReadonlyArray<AdminEndpoint<Deps>> = [
  {
    method: 'get',
    path: '/overview',
    tag: 'overview',
    access: 'signed-in',
    summary: "Traffic across keys, failing subscriptions and queue depth: each part the reader's modules allow",
    responses: { 200: ok('the overview', 'Overview'), 401: GUARDED[401]! },
    handle:
      ({ services, queues }) =>
      async (req, res) => {
        const readQueues = () =>
          Promise.all([depthOf('ingest', queues.ingest), depthOf('webhook-delivery', queues.webhook)]);
        res.json(await services.overview.summary(req.principal, readQueues));
      },
  },
];

/** The overview's router, made from its declaration (mounted on the admin base path itself). */
export function overviewRoutes(
  services: Pick<Services, 'overview'>,
  tokens: TokenService,
  queues: { ingest: Queue; webhook: Queue },
): Router {
  return adminRouter(OVERVIEW_ROUTES, { services, queues }, tokens);
}
