import { apiPage } from './client';
import type { AuditEntry } from './types';

export interface AuditFilter {
  entityType?: string;
  entityId?: string;
  action?: string;
  actorEmail?: string;
  /** ISO instants; `to` is exclusive. */
  from?: string;
  to?: string;
  limit?: number;
  cursor?: string;
}

export const auditApi = {
  /** Newest first, one page at a time. */
  list: (filter: AuditFilter = {}) => apiPage<AuditEntry>('/audit-logs', { ...filter }),
};
