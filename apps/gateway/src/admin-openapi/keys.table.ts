import { createApiKeySchema, listApiKeysQuerySchema, rollApiKeySchema, updateApiKeySchema } from '@wms/api-keys';
import { auditListQuerySchema } from '@wms/identity';
import {
  GUARDED,
  INVALID,
  NEXT_PAGE_HEADERS,
  NOT_FOUND,
  error,
  listOf,
  moduleAccess,
  ok,
  type AdminRoute,
} from './admin-route.js';

const keyAction = (
  method: 'get' | 'post' | 'patch',
  path: string,
  summary: string,
  answer: string,
  extra: Partial<AdminRoute> = {},
): AdminRoute => ({
  method,
  path: `/api-keys${path}`,
  tag: 'api-keys',
  access: moduleAccess('api-keys', method),
  summary,
  ...extra,
  responses: {
    200: ok('the key', answer),
    ...(extra.body ? INVALID : {}),
    ...GUARDED,
    ...NOT_FOUND,
    ...(method === 'get' ? {} : BEYOND),
  },
});

/** Every change to a key: the caller's modules must reach the key's scopes, as creating it would. */
const BEYOND: AdminRoute['responses'] = {
  403: error(
    "the user lacks the api-keys module, or SCOPE_BEYOND_MODULES: the key's scopes reach beyond the user's modules (admin: the admin role)",
  ),
};

/** API keys of the integration API, and the audit trail. */
export const KEY_ROUTES: AdminRoute[] = [
  {
    method: 'get',
    path: '/api-versions',
    tag: 'api-keys',
    access: 'signed-in',
    summary:
      "The integration API's dated versions, newest first, what each changed, and the one a new key or subscription gets here",
    responses: { 200: ok('the versions', 'ApiVersions'), ...GUARDED },
  },
  {
    method: 'post',
    path: '/api-keys',
    tag: 'api-keys',
    access: moduleAccess('api-keys', 'post'),
    summary: 'Create an API key; its raw key is in this answer only (a tenant-bound user: in its tenant)',
    body: createApiKeySchema,
    bodyName: 'CreateApiKey',
    responses: { 201: ok('created', 'CreatedApiKey'), ...INVALID, ...GUARDED, ...BEYOND },
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
  },
  keyAction('get', '/:id', 'One key', 'ApiKey'),
  keyAction('patch', '/:id', 'Change a key (not its tenant)', 'ApiKey', {
    body: updateApiKeySchema,
    bodyName: 'UpdateApiKey',
  }),
  keyAction('post', '/:id/revoke', 'Revoke a key: it stops authenticating on every replica', 'ApiKey'),
  keyAction('post', '/:id/activate', 'Activate a revoked key', 'ApiKey'),
  keyAction(
    'post',
    '/:id/roll',
    'A new raw key for the same key, in this answer only; the previous one works for graceSeconds more',
    'CreatedApiKey',
    { body: rollApiKeySchema, bodyName: 'RollApiKey', bodyRequired: false },
  ),
  keyAction('post', '/:id/revoke-previous', "End a roll's grace period now", 'ApiKey'),
  keyAction('get', '/:id/stats', 'Traffic of a key: totals, latest requests, hourly and daily series', 'ApiKeyStats'),
  {
    method: 'get',
    path: '/audit-logs',
    tag: 'audit',
    access: moduleAccess('audit', 'get'),
    summary: 'The audit trail, newest first, filtered by entity, action, actor and time; one page per call',
    query: auditListQuerySchema,
    responses: {
      200: { description: 'one page', body: listOf('AuditEntry'), headers: NEXT_PAGE_HEADERS },
      ...INVALID,
      ...GUARDED,
    },
  },
];
