import { AppError } from '@wms/platform';
import { isUuid } from '@wms/platform';

export const TENANT_REQUIRED_MESSAGE = 'tenantId is required.';

/**
 * The tenant an API-key request acts in: a bound key acts in its tenant and a
 * `tenantId` naming another is refused with 403; a cross-tenant key must name one (body top level,
 * or the query for GET). Whether a named tenant exists is checked by the caller (it needs the database).
 */
export function resolveKeyTenant(key: { tenantId: string | null }, requested: unknown): string {
  const named = requested === undefined || requested === null || requested === '' ? undefined : requested;
  if (named !== undefined && typeof named !== 'string') {
    throw AppError.validation('Request validation failed', [
      { path: 'tenantId', message: 'tenantId must be a string' },
    ]);
  }
  if (key.tenantId) {
    if (named !== undefined && named !== key.tenantId)
      throw AppError.forbidden('Access to another tenant is not allowed', 'TENANT_MISMATCH');
    return key.tenantId;
  }
  if (named === undefined) throw new AppError(400, 'TENANT_REQUIRED', TENANT_REQUIRED_MESSAGE);
  if (!isUuid(named))
    throw AppError.validation('Request validation failed', [
      { path: 'tenantId', message: 'tenantId must be a valid GUID' },
    ]);
  return named;
}
