import { apiPage } from './client';
import type { AuditEntry, AuditQuery } from './types';

/** ISO instants; `to` is exclusive. */
export type AuditFilter = AuditQuery;

export const auditApi = {
  /** Newest first, one page at a time. */
  list: (filter: AuditFilter = {}) => apiPage<AuditEntry>('/audit-logs', { ...filter }),
};
