import { http, okPage } from './client';
import type { AuditQuery } from './types';

/** ISO instants; `to` is exclusive. */
export type AuditFilter = AuditQuery;

export const auditApi = {
  /** Newest first, one page at a time. */
  list: (filter: AuditFilter = {}) => okPage(http.GET('/audit-logs', { params: { query: filter } })),
};
