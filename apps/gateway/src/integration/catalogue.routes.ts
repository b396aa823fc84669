import type { Router } from 'express';
import { compileValidator, quantityFormatOf, validate } from '@wms/platform';
import type { ItemListQuery, LocationListQuery, PartnerListQuery, StockLevelsQuery } from '@wms/warehouse';
import { successEnvelope, successEnvelopeText, type IntegrationRoute } from '@wms/ingest';
import type { Services } from '../services.js';
import { mount } from './scope.js';
import { keyTenant } from './key-tenant.js';
import { CATALOGUE_ROUTES as ROUTES } from './catalogue.route-table.js';
import { versionOf } from './api-version.middleware.js';
import { requestIdOf } from '../http/index.js';

type Tenanted<Query> = Query & { tenantId?: string };

const checkItemQuery = compileValidator(ROUTES.item.query, 'Query validation failed');

/**
 * The catalogue reads and the stock of many skus, added to the integration router itself like the other
 * inquiries. Each validates its query, resolves the key's tenant, and answers one statement's page.
 */
export function catalogueRoutes(router: Router, services: Services): void {
  const page = <Query>(
    route: IntegrationRoute & { query: NonNullable<IntegrationRoute['query']> },
    fetch: (tenantId: string, query: Query) => Promise<{ data: unknown[]; nextCursor: string | null }>,
  ) =>
    mount(router, route, async (req, res) => {
      const { tenantId: named, ...query } = validate<Tenanted<Query>>(
        route.query,
        req.query,
        'Query validation failed',
      );
      const tenantId = await keyTenant(req, services, named);
      const { data, nextCursor } = await fetch(tenantId, query as Query);
      res.json({ status: 'success', data, nextCursor, requestId: requestIdOf(req) });
    });

  page<ItemListQuery>(ROUTES.items, (tenantId, query) => services.catalogue.items(tenantId, query));
  page<PartnerListQuery>(ROUTES.partners, (tenantId, query) => services.catalogue.partners(tenantId, query));
  page<LocationListQuery>(ROUTES.locations, (tenantId, query) => services.catalogue.locations(tenantId, query));

  mount(router, ROUTES.item, async (req, res) => {
    const { tenantId: named } = checkItemQuery(req.query) as { tenantId?: string };
    const tenantId = await keyTenant(req, services, named);
    res.json(successEnvelope(await services.catalogue.item(tenantId, String(req.params.sku)), requestIdOf(req)));
  });

  // Built as JSON text by PostgreSQL in the request's version, like GET /stock: sent as it came.
  mount(router, ROUTES.stockLevels, async (req, res) => {
    const { tenantId: named, ...query } = validate<Tenanted<StockLevelsQuery>>(
      ROUTES.stockLevels.query,
      req.query,
      'Query validation failed',
    );
    const tenantId = await keyTenant(req, services, named);
    const levels = await services.stock.levelsJson(tenantId, query, quantityFormatOf(versionOf(req)));
    res.type('application/json').send(successEnvelopeText(levels, requestIdOf(req)));
  });
}
