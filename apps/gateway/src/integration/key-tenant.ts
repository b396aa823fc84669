import type { Services } from '../services.js';
import type { KeyRequest } from '../http/index.js';
import { resolveKeyTenant } from '@wms/ingest';

/**
 * The tenant this API-key request acts in: a tenant-bound key's at once (no promise on the inquiries' path),
 * a tenant a cross-tenant key names once it is known to exist. A request with a JSON body names it there
 * (its 400 TENANT_REQUIRED says so), any other (a GET, an upload, a bodiless POST) in its query.
 */
export function keyTenant(
  req: KeyRequest,
  services: Pick<Services, 'tenants'>,
  requested: unknown,
): string | Promise<string> {
  const key = req.apiKey;
  const tenantId = resolveKeyTenant(key, requested, req.body === undefined ? 'query' : 'body');
  if (key.tenantId) return tenantId;
  return services.tenants.requireExisting(tenantId).then(() => tenantId);
}

/** `tenantId` at the top level of a JSON object body, if any. */
export function bodyTenant(body: unknown): unknown {
  return body && typeof body === 'object' && !Array.isArray(body)
    ? (body as Record<string, unknown>).tenantId
    : undefined;
}
