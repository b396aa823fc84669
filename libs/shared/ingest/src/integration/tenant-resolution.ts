import { AppError } from '@wms/platform';
import { isUuid } from '@wms/platform';

export const TENANT_REQUIRED_MESSAGE = 'tenantId is required.';

/** Where a request names its tenant: at the top level of its JSON body, or in its query (a GET, an upload). */
export type TenantPlace = 'body' | 'query';

const TENANT_PLACES: Record<TenantPlace, string> = {
  body: 'at the top level of the JSON body ("tenantId": "<tenant id>")',
  query: 'in the query (?tenantId=<tenant id>)',
};

/**
 * 400 TENANT_REQUIRED with the interface's message; its `details` say where this request names the tenant,
 * since a key made for all tenants meets it on its first call.
 */
function tenantRequiredError(place: TenantPlace): AppError {
  return new AppError('TENANT_REQUIRED', TENANT_REQUIRED_MESSAGE, [
    {
      path: 'tenantId',
      message: `An API key of all tenants names the tenant of each request: tenantId ${TENANT_PLACES[place]}`,
    },
  ]);
}

/**
 * The tenant an API-key request acts in: a bound key acts in its tenant and a
 * `tenantId` naming another is refused with 403; a cross-tenant key must name one (body top level,
 * or the query for GET: `place`). Whether a named tenant exists is checked by the caller (it needs the database).
 */
export function resolveKeyTenant(key: { tenantId: string | null }, requested: unknown, place: TenantPlace): string {
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
  if (named === undefined) throw tenantRequiredError(place);
  if (!isUuid(named))
    throw AppError.validation('Request validation failed', [
      { path: 'tenantId', message: 'tenantId must be a valid GUID' },
    ]);
  return named;
}
