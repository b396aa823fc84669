import type { Principal } from '@wms/identity';
import { AppError } from '@wms/platform';

/**
 * The tenant a JWT user acts in. A tenant-bound user acts in its own tenant and cannot name another;
 * a cross-tenant user names one with `tenantId` (body or query) or, where `required` is false, acts
 * across all tenants (null).
 */
export function tenantScopeOf(principal: Principal, requested: unknown, required: boolean): string | null {
  const named = typeof requested === 'string' && requested.length > 0 ? requested : undefined;
  if (principal.tenantId) {
    if (named && named !== principal.tenantId)
      throw AppError.forbidden('Access to another tenant is not allowed', 'TENANT_MISMATCH');
    return principal.tenantId;
  }
  if (!named && required) throw new AppError('TENANT_REQUIRED', 'tenantId is required.');
  return named ?? null;
}
