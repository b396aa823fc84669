import { type Router } from 'express';
import {
  createApiKeySchema,
  listApiKeysQuerySchema,
  rollApiKeySchema,
  updateApiKeySchema,
  type ApiKeyActor,
} from '@wms/api-keys';
import { assertScopesWithinReach, type TokenService } from '@wms/identity';
import { Joi, AppError, validate } from '@wms/platform';
import type { Services } from '../services.js';
import { requireJwt, requireModule } from '../http/jwt-guard.js';
import { personRoutes, type PersonHandler, type PersonRequest } from '../http/caller.js';
import { setNextPage } from '../http/next-page.js';
import { tenantScopeOf } from '../http/tenant-scope.js';
import { caseSensitiveRouter } from '../http/router.js';

const uuid = Joi.string().uuid();

function actorOf(req: PersonRequest): ApiKeyActor {
  return { userId: req.principal.sub, tenantId: req.principal.tenantId };
}

/**
 * API-key administration (module `api-keys`). A tenant-bound user manages only its tenant's keys; another
 * tenant's key is a 404. A key's scopes reach no further than its creator's modules (SCOPE_REACH), and every
 * change to a key (PATCH of any field, revoke, activate, roll, revoke-previous) needs the reach its create would.
 */
export function apiKeysRoutes(services: Services, tokens: TokenService): Router {
  const router = caseSensitiveRouter();
  router.use(requireJwt(tokens), requireModule('api-keys'));
  const routes = personRoutes(router);
  router.param('id', (_req, _res, next, id: string) => {
    if (uuid.validate(id).error) throw AppError.notFound(`API key ${id} not found`);
    next();
  });
  /** 403 SCOPE_BEYOND_MODULES when the key named by the path reaches beyond the caller's modules. */
  const keyWithinReach: PersonHandler = async (req, _res, next) => {
    const key = await services.apiKeys.get(req.params.id as string, actorOf(req));
    assertScopesWithinReach(req.principal, key.scopes);
    next();
  };

  routes.post('/', async (req, res) => {
    const input = validate(createApiKeySchema, req.body);
    const tenantId = tenantScopeOf(req.principal, input.tenantId, false);
    assertScopesWithinReach(req.principal, input.scopes);
    const created = await services.apiKeys.create(
      { ...input, tenantId, rateLimitPerMinute: input.rateLimitPerMinute ?? 0 },
      req.principal.sub,
    );
    res.status(201).json(created);
  });

  routes.get('/', async (req, res) => {
    const query = validate(listApiKeysQuerySchema, req.query, 'Invalid query');
    tenantScopeOf(req.principal, query.tenantId, false);
    const page = await services.apiKeys.page(actorOf(req), {
      tenantId: query.tenantId ?? null,
      expiringWithinSeconds: query.expiringWithin ?? null,
      limit: query.limit,
      cursor: query.cursor,
    });
    setNextPage(req, res, page.nextCursor);
    res.json(page.data);
  });

  routes.get('/:id', async (req, res) => {
    res.json(await services.apiKeys.get(req.params.id as string, actorOf(req)));
  });

  routes.patch('/:id', keyWithinReach, async (req, res) => {
    const input = validate(updateApiKeySchema, req.body);
    if (input.scopes) assertScopesWithinReach(req.principal, input.scopes);
    res.json(await services.apiKeys.update(req.params.id as string, input, actorOf(req)));
  });

  routes.post('/:id/revoke', keyWithinReach, async (req, res) => {
    res.json(await services.apiKeys.revoke(req.params.id as string, actorOf(req)));
  });

  routes.post('/:id/activate', keyWithinReach, async (req, res) => {
    res.json(await services.apiKeys.activate(req.params.id as string, actorOf(req)));
  });

  /** A new raw key, shown once; the previous one works for graceSeconds more (default 0). */
  routes.post('/:id/roll', keyWithinReach, async (req, res) => {
    const { graceSeconds } = validate(rollApiKeySchema, req.body ?? {});
    res.json(await services.apiKeys.roll(req.params.id as string, graceSeconds, actorOf(req)));
  });

  /** Ends a roll's grace period now: the previous raw key stops on every replica. */
  routes.post('/:id/revoke-previous', keyWithinReach, async (req, res) => {
    res.json(await services.apiKeys.revokePrevious(req.params.id as string, actorOf(req)));
  });

  routes.get('/:id/stats', async (req, res) => {
    res.json(await services.apiKeys.stats(req.params.id as string, actorOf(req)));
  });

  return router;
}
