import { api } from './client';
import type { ApiKey, ApiKeyInput, ApiKeyStats, AuditEntry, CreatedApiKey } from './types';

const base = '/api-keys';

export const apiKeysApi = {
  list: (tenantId?: string) => api.get<ApiKey[]>(base, { tenantId }),
  get: (id: string) => api.get<ApiKey>(`${base}/${encodeURIComponent(id)}`),
  create: (input: ApiKeyInput) => api.post<CreatedApiKey>(base, input),
  update: (id: string, input: Partial<Omit<ApiKeyInput, 'tenantId'>>) =>
    api.patch<ApiKey>(`${base}/${encodeURIComponent(id)}`, input),
  revoke: (id: string) => api.post<ApiKey>(`${base}/${encodeURIComponent(id)}/revoke`),
  activate: (id: string) => api.post<ApiKey>(`${base}/${encodeURIComponent(id)}/activate`),
  stats: (id: string) => api.get<ApiKeyStats>(`${base}/${encodeURIComponent(id)}/stats`),
  /** The key's audit trail (needs the `audit` module). */
  auditTrail: (id: string) => api.get<AuditEntry[]>('/audit-logs', { entityType: 'api_key', entityId: id, limit: 100 }),
};
