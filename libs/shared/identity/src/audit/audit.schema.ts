import { Joi } from '@wms/platform';
import { decodeCursor, LIST_LIMIT_MAX, type CursorPosition } from '@wms/platform';

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
  from: Joi.date().iso(),
  to: Joi.date()
    .iso()
    .when('from', { is: Joi.exist(), then: Joi.date().greater(Joi.ref('from')) }),
  tenantId: Joi.string().uuid(),
  limit: Joi.number().integer().min(1).max(LIST_LIMIT_MAX).default(100),
  cursor: Joi.string()
    .max(200)
    .custom((value: string, helpers) => decodeCursor(value) ?? helpers.error('any.invalid'))
    .messages({ 'any.invalid': '{{#label}} is not a cursor this API issued' }),
});
