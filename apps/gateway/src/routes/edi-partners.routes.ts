import type { NextFunction, Router } from 'express';
import { hasModulePermission, type Principal, type TokenService } from '@wms/identity';
import { assertSetsWithinReach, createPartnerSchema, listPartnersQuerySchema } from '@wms/edi';
import { AppError, validate, type CursorPosition } from '@wms/platform';
import type { Services } from '../services.js';
import { requireJwt, requireModule } from '../http/jwt-guard.js';
import { setNextPage } from '../http/next-page.js';
import { tenantScopeOf } from '../http/tenant-scope.js';
import { caseSensitiveRouter } from '../http/router.js';
import { personRoutes, type PersonRequest } from '../http/caller.js';

/** 403 when the body binds an API key and the caller may not read keys: a partner's key is a key it manages. */
function assertMayBindKey(principal: Principal, body: unknown): void {
  const apiKeyId = (body as { apiKeyId?: unknown } | null)?.apiKeyId;
  if (typeof apiKeyId === 'string' && !hasModulePermission(principal, 'api-keys', 'read')) {
    throw AppError.forbidden(
      'Binding an API key to a trading partner needs read on module api-keys',
      'API_KEYS_MODULE_REQUIRED',
    );
  }
}

/**
 * EDI trading partners (module `edi`), their SFTP accounts and documents. A tenant-bound user sees only its
 * tenant's partners. A partner's sets reach the modules whose data they carry (SET_REACH): to create one, and
 * to do anything to one but look at it, the caller must read every module its sets reach.
 */
export function ediPartnersRoutes(services: Services, tokens: TokenService): Router {
  const router = caseSensitiveRouter();
  router.use(requireJwt(tokens), requireModule('edi'));
  const routes = personRoutes(router);
  const { partners, sftp, documents } = services.edi;

  /** 403 SETS_BEYOND_MODULES when the partner named by the path reaches beyond the caller's modules. */
  const partnerWithinReach = async <P extends { id: string }>(
    req: PersonRequest<P>,
    _res: unknown,
    next: NextFunction,
  ) => {
    const partner = await partners.get(req.params.id, req.principal);
    assertSetsWithinReach(req.principal, [...partner.inboundSets, ...partner.outboundSets]);
    next();
  };

  routes.post('/', async (req, res) => {
    // Validated before the tenant is looked up, so a malformed tenantId is the body's 400 like any other field.
    const body: unknown = req.body ?? {};
    const { tenantId: named } = validate<{ tenantId?: string }>(createPartnerSchema, body);
    const tenantId = tenantScopeOf(req.principal, named, true)!;
    assertMayBindKey(req.principal, body);
    await services.tenants.requireExisting(tenantId);
    res.status(201).json(await partners.create(body, tenantId, req.principal));
  });

  routes.get('/', async (req, res) => {
    const { tenantId, ...query } = validate<{
      tenantId?: string;
      status?: 'active' | 'disabled';
      limit: number;
      cursor?: CursorPosition;
    }>(listPartnersQuerySchema, req.query, 'Invalid query');
    const tenantFilter = tenantScopeOf(req.principal, tenantId, false) ?? undefined;
    const page = await partners.page(req.principal, { ...query, tenantId: tenantFilter });
    setNextPage(req, res, page.nextCursor);
    res.json(page.data);
  });

  routes.get('/:id', async (req, res) => {
    res.json(await partners.get(req.params.id, req.principal));
  });

  routes.patch('/:id', partnerWithinReach, async (req, res) => {
    assertMayBindKey(req.principal, req.body);
    res.json(await partners.update(req.params.id, req.body ?? {}, req.principal));
  });

  routes.delete('/:id', partnerWithinReach, async (req, res) => {
    await partners.remove(req.params.id, req.principal);
    res.status(204).end();
  });

  routes.post('/:id/disable', partnerWithinReach, async (req, res) => {
    res.json(await partners.setStatus(req.params.id, 'disabled', req.principal));
  });

  routes.post('/:id/enable', partnerWithinReach, async (req, res) => {
    res.json(await partners.setStatus(req.params.id, 'active', req.principal));
  });

  /** A new SFTP password, in this answer only. */
  routes.post('/:id/sftp/password', partnerWithinReach, async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json(await sftp.newPassword(req.params.id, req.principal));
  });

  routes.post('/:id/sftp/keys', partnerWithinReach, async (req, res) => {
    res.status(201).json(await sftp.addKey(req.params.id, req.body ?? {}, req.principal));
  });

  routes.delete('/:id/sftp/keys/:fingerprint', partnerWithinReach, async (req, res) => {
    await sftp.removeKey(req.params.id, req.params.fingerprint, req.principal);
    res.status(204).end();
  });

  routes.get('/:id/documents', async (req, res) => {
    const page = await documents.page(req.params.id, req.query, req.principal);
    setNextPage(req, res, page.nextCursor);
    res.json(page.data);
  });

  routes.get('/:id/documents/:documentId', async (req, res) => {
    res.json(await documents.detail(req.params.id, req.params.documentId, req.principal));
  });

  routes.post('/:id/documents/:documentId/resend', partnerWithinReach, async (req, res) => {
    res.status(202).json(await documents.resend(req.params.id, req.params.documentId, req.principal));
  });

  routes.post('/:id/inventory-advice', partnerWithinReach, async (req, res) => {
    res.status(202).json(await documents.sendInventoryAdvice(req.params.id, req.principal));
  });

  return router;
}
