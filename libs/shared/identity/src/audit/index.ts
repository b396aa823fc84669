export type { AuditLogAttributes } from './audit-log.model.js';
export { AuditService, type AuditEntry, type AuditRecordInput, type AuditQuery } from './audit.service.js';
export { auditListQuerySchema, type AuditListParams } from './audit.schema.js';
export { changedFields, type FieldChange } from './changed-fields.js';
export { AuditRepository } from './audit.repository.js';
