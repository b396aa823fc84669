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
import { setNextPage, tenantScopeOf, type PersonHandler, type PersonRequest } from '../http/index.js';
import {
  GUARDED,
  INVALID,
  NEXT_PAGE_HEADERS,
  NOT_FOUND,
  adminRouter,
  error,
  listOf,
  moduleAccess,
  ok,
  type AdminEndpoint,
  type AdminRoute,
} from './admin-route.js';

type Deps = Pick<Services, 'apiKeys'>;
type Endpoint = AdminEndpoint<Deps>;
type Check = (deps: Deps) => PersonHandler<Record<string, string>>;

const uuid = Joi.string().uuid();

function actorOf(req: PersonRequest): ApiKeyActor {
  return { userId: req.principal.sub, tenantId: req.principal.tenantId };
}

/** 404 for a path id that is no UUID, before the key is looked up. */
const knownId: Check = () => (req, _res, next) => {
  const id = req.params.id!;
  if (uuid.validate(id).error) throw AppError.notFound(`API key ${id} not found`);
  next();
};

/** 403 SCOPE_BEYOND_MODULES when the key named by the path reaches beyond the caller's modules. */
const keyWithinReach: Check =
  ({ apiKeys }) =>
  async (req, _res, next) => {
    const key = await apiKeys.get(req.params.id!, actorOf(req));
    assertScopesWithinReach(req.principal, key.scopes);
    next();
  };

/** Every change to a key: the caller's modules must reach the key's scopes, as creating it would. */
const BEYOND: AdminRoute['responses'] = {
  403: error(
    "the user lacks the api-keys module, or SCOPE_BEYOND_MODULES: the key's scopes reach beyond the user's modules (admin: the admin role)",
  ),
};

/** A route on one key (`/api-keys/:id…`): a change needs the key within the caller's reach. */
const keyAction = (
  method: 'get' | 'post' | 'patch',
  path: string,
  summary: string,
  answer: string,
  handle: Endpoint['handle'],
  extra: Partial<Omit<Endpoint, 'handle' | 'before'>> = {},
): Endpoint => ({
  method,
  path: `/api-keys${path}`,
  tag: 'api-keys',
  access: moduleAccess('api-keys', method),
  summary,
  ...extra,
  before: method === 'get' ? [knownId] : [knownId, keyWithinReach],
  handle,
  responses: {
    200: ok('the key', answer),
    ...(extra.body ? INVALID : {}),
    ...GUARDED,
    ...NOT_FOUND,
    ...(method === 'get' ? {} : BEYOND),
  },
});

/**
 * API-key administration (module `api-keys`), each route declared once. A tenant-bound user manages only its
 * tenant's keys; another tenant's key is a 404. A key's scopes reach no further than its creator's modules
 * (SCOPE_REACH), and every change to a key (PATCH of any field, revoke, activate, roll, revoke-previous) needs
 * the reach its create would.
 */
export const API_KEY_ROUTES: readonly Endpoint[] = [
  {
    method: 'post',
    path: '/api-keys',
    tag: 'api-keys',
    access: moduleAccess('api-keys', 'post'),
    summary: 'Create an API key; its raw key is in this answer only (a tenant-bound user: in its tenant)',
    body: createApiKeySchema,
    bodyName: 'CreateApiKey',
    responses: { 201: ok('created', 'CreatedApiKey'), ...INVALID, ...GUARDED, ...BEYOND },
    handle:
      ({ apiKeys }) =>
      async (req, res) => {
        const input = validate(createApiKeySchema, req.body);
        const tenantId = tenantScopeOf(req.principal, input.tenantId, false);
        assertScopesWithinReach(req.principal, input.scopes);
        const created = await apiKeys.create(
          { ...input, tenantId, rateLimitPerMinute: input.rateLimitPerMinute ?? 0 },
          req.principal.sub,
        );
        res.status(201).json(created);
      },
  },
  {
    method: 'get',
    path: '/api-keys',
    tag: 'api-keys',
    access: moduleAccess('api-keys', 'get'),
    summary: 'The keys the reader may see; expiringWithin (P14D) keeps those that stop working within it',
    query: listApiKeysQuerySchema,
    responses: {
      200: { description: 'one page', body: listOf('ApiKey'), headers: NEXT_PAGE_HEADERS },
      ...INVALID,
      ...GUARDED,
    },
    handle:
      ({ apiKeys }) =>
      async (req, res) => {
        const query = validate(listApiKeysQuerySchema, req.query, 'Invalid query');
        tenantScopeOf(req.principal, query.tenantId, false);
        const page = await apiKeys.page(actorOf(req), {
          tenantId: query.tenantId ?? null,
          expiringWithinSeconds: query.expiringWithin ?? null,
          limit: query.limit,
          cursor: query.cursor,
        });
        setNextPage(req, res, page.nextCursor);
        res.json(page.data);
      },
  },
  keyAction('get', '/:id', 'One key', 'ApiKey', ({ apiKeys }) => async (req, res) => {
    res.json(await apiKeys.get(req.params.id!, actorOf(req)));
  }),
  keyAction(
    'patch',
    '/:id',
    'Change a key (not its tenant)',
    'ApiKey',
    ({ apiKeys }) =>
      async (req, res) => {
        const input = validate(updateApiKeySchema, req.body);
        if (input.scopes) assertScopesWithinReach(req.principal, input.scopes);
        res.json(await apiKeys.update(req.params.id!, input, actorOf(req)));
      },
    { body: updateApiKeySchema, bodyName: 'UpdateApiKey' },
  ),
  keyAction(
    'post',
    '/:id/revoke',
    'Revoke a key: it stops authenticating on every replica',
    'ApiKey',
    ({ apiKeys }) =>
      async (req, res) => {
        res.json(await apiKeys.revoke(req.params.id!, actorOf(req)));
      },
  ),
  keyAction('post', '/:id/activate', 'Activate a revoked key', 'ApiKey', ({ apiKeys }) => async (req, res) => {
    res.json(await apiKeys.activate(req.params.id!, actorOf(req)));
  }),
  keyAction(
    'post',
    '/:id/roll',
    'A new raw key for the same key, in this answer only; the previous one works for graceSeconds more',
    'CreatedApiKey',
    ({ apiKeys }) =>
      async (req, res) => {
        // The previous raw key works for graceSeconds more (default 0).
        const { graceSeconds } = validate(rollApiKeySchema, req.body ?? {});
        res.json(await apiKeys.roll(req.params.id!, graceSeconds, actorOf(req)));
      },
    { body: rollApiKeySchema, bodyName: 'RollApiKey', bodyRequired: false },
  ),
  keyAction(
    'post',
    '/:id/revoke-previous',
    "End a roll's grace period now",
    'ApiKey',
    ({ apiKeys }) =>
      async (req, res) => {
        // The previous raw key stops on every replica.
        res.json(await apiKeys.revokePrevious(req.params.id!, actorOf(req)));
      },
  ),
  keyAction(
    'get',
    '/:id/stats',
    'Traffic of a key: totals, latest requests, hourly and daily series',
    'ApiKeyStats',
    ({ apiKeys }) =>
      async (req, res) => {
        res.json(await apiKeys.stats(req.params.id!, actorOf(req)));
      },
  ),
];

/** The API keys' router, made from their declarations (mounted on the admin base path itself). */
export function apiKeysRoutes(services: Services, tokens: TokenService): Router {
  return adminRouter(API_KEY_ROUTES, services, tokens);
}
