import { type Router } from 'express';
import { validate } from '@wms/platform';
import type { Services } from '../services.js';
import { keyTenant } from './key-tenant.js';
import { mount } from './scope.js';
import { INTEGRATION_ROUTES } from './route-table.js';
import { caseSensitiveRouter, requestIdOf } from '../http/index.js';

/**
 * GET /events: the reconciliation feed. A client that missed webhooks reads the
 * key's tenant events oldest first and keeps `nextCursor` for its next call.
 */
export function eventFeedRoutes(services: Pick<Services, 'events' | 'tenants'>): Router {
  const router = caseSensitiveRouter();
  const route = INTEGRATION_ROUTES.events;
  mount(router, route, async (req, res) => {
    const query = validate<{ after?: string; limit: number; tenantId?: string }>(
      route.query,
      req.query,
      'Query validation failed',
    );
    const tenantId = await keyTenant(req, services, query.tenantId);
    const [page, sandbox] = await Promise.all([
      services.events.listForTenant(tenantId, query.after, query.limit),
      services.tenants.isSandbox(tenantId),
    ]);
    // The feed lists the webhook bodies: a sandbox tenant's say so, as its deliveries do.
    const events = sandbox ? page.events.map(({ data, ...event }) => ({ ...event, sandbox: true, data })) : page.events;
    res.json({ status: 'success', data: events, nextCursor: page.nextCursor, requestId: requestIdOf(req) });
  });
  return router;
}
