import type { Router } from 'express';
import { hasModulePermission, type Principal, type TokenService } from '@wms/identity';
import {
  addPublicKeySchema,
  assertSetsWithinReach,
  createPartnerSchema,
  listDocumentsQuerySchema,
  listPartnersQuerySchema,
  updatePartnerSchema,
} from '@wms/edi';
import { AppError, validate, type CursorPosition } from '@wms/platform';
import type { Services } from '../services.js';
import { setNextPage, tenantScopeOf, type PersonHandler } from '../http/index.js';
import {
  GUARDED,
  INVALID,
  NEXT_PAGE_HEADERS,
  NOT_FOUND,
  adminRouter,
  error,
  listOf,
  moduleAccess,
  ok,
  type AdminEndpoint,
  type AdminRoute,
} from './admin-route.js';

type Deps = Pick<Services, 'edi' | 'tenants'>;
type Endpoint = AdminEndpoint<Deps>;

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

/** 403 SETS_BEYOND_MODULES when the partner named by the path reaches beyond the caller's modules. */
const partnerWithinReach =
  ({ edi }: Deps): PersonHandler<Record<string, string>> =>
  async (req, _res, next) => {
    const partner = await edi.partners.get(req.params.id!, req.principal);
    assertSetsWithinReach(req.principal, [...partner.inboundSets, ...partner.outboundSets]);
    next();
  };

/** A route of module `edi` under /edi/partners: read for GET, write otherwise. */
const partner = (
  method: AdminRoute['method'],
  path: string,
  summary: string,
  responses: AdminRoute['responses'],
  handle: Endpoint['handle'],
  extra: Partial<Omit<Endpoint, 'handle'>> = {},
): Endpoint => ({
  method,
  path: `/edi/partners${path}`,
  tag: 'edi',
  access: moduleAccess('edi', method),
  summary,
  handle,
  ...extra,
  // The route's own answers last: a 403 or 409 it names says more than the guard's.
  responses: { ...(extra.body || extra.query ? INVALID : {}), ...GUARDED, ...NOT_FOUND, ...responses },
});

/** Every action on a partner but looking at it: the caller must read what its sets reach. */
const BEYOND: AdminRoute['responses'] = {
  403: error("the user lacks the edi module, or SETS_BEYOND_MODULES: the partner's sets reach beyond its read modules"),
};
const SETTINGS_CONFLICTS = error(
  'PARTNER_ISA_EXISTS: the tenant has a partner with this ISA qualifier and ID; API_KEY_BOUND: the key speaks for another partner; SFTP_USERNAME_TAKEN',
);
const NOT_SENDABLE = error(
  'EDI_SENDING_DISABLED: the partner is disabled; EDI_SET_NOT_SENT: the partner is not sent 846s; EDI_RESEND_INBOUND: the document was received',
);
const withinReach = { before: [partnerWithinReach] };

/**
 * EDI trading partners (module `edi`), their SFTP accounts and documents, each declared once. A tenant-bound
 * user sees only its tenant's partners. A partner's sets reach the modules whose data they carry (SET_REACH):
 * to create one, and to do anything to one but look at it, the caller must read every module its sets reach.
 */
export const EDI_PARTNER_ROUTES: readonly Endpoint[] = [
  partner(
    'post',
    '',
    'Add a trading partner: envelope identifiers, separators, sets each way, mapping defaults, the 846 schedule',
    {
      201: ok('created', 'TradingPartner'),
      403: error(
        'the user lacks the edi module; SETS_BEYOND_MODULES; API_KEYS_MODULE_REQUIRED: binding a key needs read on api-keys; TENANT_MISMATCH',
      ),
      409: SETTINGS_CONFLICTS,
    },
    ({ edi, tenants }) =>
      async (req, res) => {
        // Validated before the tenant is looked up, so a malformed tenantId is the body's 400 like any other field.
        const body: unknown = req.body ?? {};
        const { tenantId: named } = validate<{ tenantId?: string }>(createPartnerSchema, body);
        const tenantId = tenantScopeOf(req.principal, named, true)!;
        assertMayBindKey(req.principal, body);
        await tenants.requireExisting(tenantId);
        res.status(201).json(await edi.partners.create(body, tenantId, req.principal));
      },
    { body: createPartnerSchema, bodyName: 'CreateTradingPartner' },
  ),
  partner(
    'get',
    '',
    'The trading partners the reader may see, oldest first',
    { 200: { description: 'one page', body: listOf('TradingPartner'), headers: NEXT_PAGE_HEADERS } },
    ({ edi }) =>
      async (req, res) => {
        const { tenantId, ...query } = validate<{
          tenantId?: string;
          status?: 'active' | 'disabled';
          limit: number;
          cursor?: CursorPosition;
        }>(listPartnersQuerySchema, req.query, 'Invalid query');
        const tenantFilter = tenantScopeOf(req.principal, tenantId, false) ?? undefined;
        const page = await edi.partners.page(req.principal, { ...query, tenantId: tenantFilter });
        setNextPage(req, res, page.nextCursor);
        res.json(page.data);
      },
    { query: listPartnersQuerySchema },
  ),
  partner(
    'get',
    '/:id',
    'One trading partner',
    { 200: ok('the partner', 'TradingPartner') },
    ({ edi }) =>
      async (req, res) => {
        res.json(await edi.partners.get(req.params.id!, req.principal));
      },
  ),
  partner(
    'patch',
    '/:id',
    "Change a partner's settings",
    { 200: ok('changed', 'TradingPartner'), ...BEYOND, 409: SETTINGS_CONFLICTS },
    ({ edi }) =>
      async (req, res) => {
        assertMayBindKey(req.principal, req.body);
        res.json(await edi.partners.update(req.params.id!, req.body ?? {}, req.principal));
      },
    { ...withinReach, body: updatePartnerSchema, bodyName: 'UpdateTradingPartner' },
  ),
  partner(
    'delete',
    '/:id',
    'Delete a partner that never exchanged a document (one that did is disabled instead)',
    {
      204: { description: 'deleted' },
      ...BEYOND,
      409: error('PARTNER_HAS_DOCUMENTS: the partner exchanged documents; disable it'),
    },
    ({ edi }) =>
      async (req, res) => {
        await edi.partners.remove(req.params.id!, req.principal);
        res.status(204).end();
      },
    withinReach,
  ),
  partner(
    'post',
    '/:id/disable',
    'Disable a partner: its SFTP account, POST /edi and its advices stop',
    { 200: ok('disabled', 'TradingPartner'), ...BEYOND },
    ({ edi }) =>
      async (req, res) => {
        res.json(await edi.partners.setStatus(req.params.id!, 'disabled', req.principal));
      },
    withinReach,
  ),
  partner(
    'post',
    '/:id/enable',
    'Enable a disabled partner',
    { 200: ok('enabled', 'TradingPartner'), ...BEYOND },
    ({ edi }) =>
      async (req, res) => {
        res.json(await edi.partners.setStatus(req.params.id!, 'active', req.principal));
      },
    withinReach,
  ),
  partner(
    'post',
    '/:id/sftp/password',
    "A new password for the partner's SFTP account, in this answer only",
    { 200: ok('the account and its password', 'SftpPassword'), ...BEYOND },
    ({ edi }) =>
      async (req, res) => {
        res.setHeader('Cache-Control', 'no-store');
        res.json(await edi.sftp.newPassword(req.params.id!, req.principal));
      },
    withinReach,
  ),
  partner(
    'post',
    '/:id/sftp/keys',
    'Let a public key log in to the SFTP account',
    {
      201: ok('added', 'SftpPublicKey'),
      400: error(
        'VALIDATION_FAILED; SFTP_KEY_INVALID: not an SSH public key; SFTP_KEY_PRIVATE: a private key was sent',
      ),
      ...BEYOND,
      409: error('SFTP_KEY_EXISTS; SFTP_KEYS_LIMIT'),
    },
    ({ edi }) =>
      async (req, res) => {
        res.status(201).json(await edi.sftp.addKey(req.params.id!, req.body ?? {}, req.principal));
      },
    { ...withinReach, body: addPublicKeySchema, bodyName: 'AddSftpPublicKey' },
  ),
  partner(
    'delete',
    '/:id/sftp/keys/:fingerprint',
    'Remove a public key, named by its fingerprint (URL-encoded)',
    { 204: { description: 'removed' }, ...BEYOND },
    ({ edi }) =>
      async (req, res) => {
        await edi.sftp.removeKey(req.params.id!, req.params.fingerprint!, req.principal);
        res.status(204).end();
      },
    withinReach,
  ),
  partner(
    'get',
    '/:id/documents',
    "The partner's documents (interchanges both ways), newest first, by direction, state or set",
    { 200: { description: 'one page', body: listOf('EdiDocument'), headers: NEXT_PAGE_HEADERS } },
    ({ edi }) =>
      async (req, res) => {
        const page = await edi.documents.page(req.params.id!, req.query, req.principal);
        setNextPage(req, res, page.nextCursor);
        res.json(page.data);
      },
    { query: listDocumentsQuerySchema },
  ),
  partner(
    'get',
    '/:id/documents/:documentId',
    'One document: its text, its segments split with its own separators, its sets and errors, its acknowledgment',
    { 200: ok('the document', 'EdiDocumentDetail') },
    ({ edi }) =>
      async (req, res) => {
        res.json(await edi.documents.detail(req.params.id!, req.params.documentId!, req.principal));
      },
  ),
  partner(
    'post',
    '/:id/documents/:documentId/resend',
    'Send an outbound document again, with new control numbers',
    { 202: ok('written to out/', 'EdiInterchange'), ...BEYOND, 409: NOT_SENDABLE },
    ({ edi }) =>
      async (req, res) => {
        res.status(202).json(await edi.documents.resend(req.params.id!, req.params.documentId!, req.principal));
      },
    withinReach,
  ),
  partner(
    'post',
    '/:id/inventory-advice',
    "Send the partner's 846 now",
    { 202: ok('written to out/', 'EdiInterchange'), ...BEYOND, 409: NOT_SENDABLE },
    ({ edi }) =>
      async (req, res) => {
        res.status(202).json(await edi.documents.sendInventoryAdvice(req.params.id!, req.principal));
      },
    withinReach,
  ),
];

/** The partners' router, made from their declarations (mounted on the admin base path itself). */
export function ediPartnersRoutes(services: Services, tokens: TokenService): Router {
  return adminRouter(EDI_PARTNER_ROUTES, services, tokens);
}
