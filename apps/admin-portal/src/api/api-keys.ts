import { api, apiAll } from './client';
import type { ApiKey, ApiKeyInput, ApiKeyPatch, ApiKeyStats, AuditEntry, CreatedApiKey } from './types';

const base = '/api-keys';

export const apiKeysApi = {
  /** `expiringWithin`: an ISO 8601 duration (P14D): only keys, or previous raw keys, that stop working within it. */
  list: (query: { tenantId?: string; expiringWithin?: string } = {}) => apiAll<ApiKey>(base, query),
  get: (id: string) => api.get<ApiKey>(`${base}/${encodeURIComponent(id)}`),
  create: (input: ApiKeyInput) => api.post<CreatedApiKey>(base, input),
  update: (id: string, input: ApiKeyPatch) => api.patch<ApiKey>(`${base}/${encodeURIComponent(id)}`, input),
  revoke: (id: string) => api.post<ApiKey>(`${base}/${encodeURIComponent(id)}/revoke`),
  activate: (id: string) => api.post<ApiKey>(`${base}/${encodeURIComponent(id)}/activate`),
  /** A new raw key for the same key, answered once; the old one keeps working for `graceSeconds`. */
  roll: (id: string, graceSeconds: number) =>
    api.post<CreatedApiKey>(`${base}/${encodeURIComponent(id)}/roll`, { graceSeconds }),
  /** Ends the previous raw key's grace period now. */
  revokePrevious: (id: string) => api.post<ApiKey>(`${base}/${encodeURIComponent(id)}/revoke-previous`),
  stats: (id: string) => api.get<ApiKeyStats>(`${base}/${encodeURIComponent(id)}/stats`),
  /** The key's audit trail (needs the `audit` module). */
  auditTrail: (id: string) => api.get<AuditEntry[]>('/audit-logs', { entityType: 'api_key', entityId: id, limit: 100 }),
};
