import { Joi, cursorSchema, decodeCursor, isoInstantDate, LIST_LIMIT_MAX, type CursorPosition } from '@wms/platform';

export interface AuditListParams {
  entityType?: string;
  entityId?: string;
  action?: string;
  actorUserId?: string;
  actorEmail?: string;
  from?: Date;
  to?: Date;
  tenantId?: string;
  limit: number;
  cursor?: CursorPosition;
}

/** `GET /audit-logs`: every filter optional and combined with AND; `to` is exclusive. */
export const auditListQuerySchema = Joi.object<AuditListParams>({
  entityType: Joi.string().trim().max(100),
  entityId: Joi.string().trim().max(200),
  action: Joi.string().trim().max(100),
  actorUserId: Joi.string().uuid(),
  actorEmail: Joi.string().trim().min(1).max(254),
  from: isoInstantDate(),
  to: isoInstantDate().when('from', { is: Joi.exist(), then: Joi.date().greater(Joi.ref('from')) }),
  tenantId: Joi.string().uuid(),
  limit: Joi.number().integer().min(1).max(LIST_LIMIT_MAX).default(100),
  cursor: cursorSchema(decodeCursor),
});
