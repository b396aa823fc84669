import type { Request } from 'express';
import { resolveKeyTenant, type Services } from '@wms/shared';

/** The tenant this API-key request acts in; a tenant a cross-tenant key names must exist. */
export async function keyTenant(
  req: Request,
  services: Pick<Services, 'tenants'>,
  requested: unknown,
): Promise<string> {
  const key = req.apiKey!;
  const tenantId = resolveKeyTenant(key, requested);
  if (!key.tenantId) await services.tenants.requireExisting(tenantId);
  return tenantId;
}

/** `tenantId` at the top level of a JSON object body, if any. */
export function bodyTenant(body: unknown): unknown {
  return body && typeof body === 'object' && !Array.isArray(body)
    ? (body as Record<string, unknown>).tenantId
    : undefined;
}
