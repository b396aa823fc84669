import { MAX_PAGE, allPages, http, ok } from './client';
import { okPage } from './client';
import type { ApiKey, ApiKeyInput, ApiKeyPatch } from './types';

const byId = (id: string) => ({ params: { path: { id } } });

export const apiKeysApi = {
  /** `expiringWithin`: an ISO 8601 duration (P14D): only keys, or previous raw keys, that stop working within it. */
  list: (query: { tenantId?: string; expiringWithin?: string } = {}): Promise<ApiKey[]> =>
    allPages((cursor) => okPage(http.GET('/api-keys', { params: { query: { ...query, limit: MAX_PAGE, cursor } } }))),
  get: (id: string) => ok(http.GET('/api-keys/{id}', byId(id))),
  create: (input: ApiKeyInput) => ok(http.POST('/api-keys', { body: input })),
  update: (id: string, input: ApiKeyPatch) => ok(http.PATCH('/api-keys/{id}', { ...byId(id), body: input })),
  revoke: (id: string) => ok(http.POST('/api-keys/{id}/revoke', byId(id))),
  activate: (id: string) => ok(http.POST('/api-keys/{id}/activate', byId(id))),
  /** A new raw key for the same key, answered once; the old one keeps working for `graceSeconds`. */
  roll: (id: string, graceSeconds: number) =>
    ok(http.POST('/api-keys/{id}/roll', { ...byId(id), body: { graceSeconds } })),
  /** Ends the previous raw key's grace period now. */
  revokePrevious: (id: string) => ok(http.POST('/api-keys/{id}/revoke-previous', byId(id))),
  stats: (id: string) => ok(http.GET('/api-keys/{id}/stats', byId(id))),
  /** The integration API's dated versions, what each changed, and the one new keys and subscriptions get here. */
  versions: () => ok(http.GET('/api-versions')),
  /** The key's audit trail (needs the `audit` module). */
  auditTrail: (id: string) =>
    ok(http.GET('/audit-logs', { params: { query: { entityType: 'api_key', entityId: id, limit: 100 } } })),
};
