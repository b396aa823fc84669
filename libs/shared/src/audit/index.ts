export type { AuditLogAttributes } from './audit-log.model.js';
