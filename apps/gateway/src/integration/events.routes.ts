import './request.types.js';
import { Router } from 'express';
import { Joi, FEED_MAX_LIMIT, validate, type Services } from '@wms/shared';
import { keyTenant } from './key-tenant.js';
import { scoped } from './scope.js';

export const eventFeedQuerySchema = Joi.object({
  after: Joi.string()
    .pattern(/^\d{1,18}$/)
    .description('nextCursor of the previous page; omit to start at the oldest event'),
  limit: Joi.number().integer().min(1).max(FEED_MAX_LIMIT).default(100),
  tenantId: Joi.string().guid().description('for a cross-tenant API key'),
}).label('EventFeedQuery');

/**
 * GET /events: the reconciliation feed. A client that missed webhooks reads the
 * key's tenant events oldest first and keeps `nextCursor` for its next call.
 */
export function eventFeedRoutes(services: Pick<Services, 'events' | 'tenants'>): Router {
  const router = Router();
  router.get('/events', scoped('read'), async (req, res) => {
    const query = validate<{ after?: string; limit: number; tenantId?: string }>(
      eventFeedQuerySchema,
      req.query,
      'Query validation failed',
    );
    const tenantId = await keyTenant(req, services, query.tenantId);
    const page = await services.events.listForTenant(tenantId, query.after, query.limit);
    res.json({ status: 'success', data: page.events, nextCursor: page.nextCursor, requestId: req.requestId });
  });
  return router;
}
