import {
  addPublicKeySchema,
  createPartnerSchema,
  listDocumentsQuerySchema,
  listPartnersQuerySchema,
  updatePartnerSchema,
} from '@wms/edi';
import {
  GUARDED,
  INVALID,
  NEXT_PAGE_HEADERS,
  NOT_FOUND,
  error,
  listOf,
  moduleAccess,
  ok,
  type AdminRoute,
} from './admin-route.js';

const partner = (
  method: AdminRoute['method'],
  path: string,
  summary: string,
  responses: AdminRoute['responses'],
  extra: Partial<AdminRoute> = {},
): AdminRoute => ({
  method,
  path: `/edi/partners${path}`,
  tag: 'edi',
  access: moduleAccess('edi', method),
  summary,
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

/** EDI trading partners, their SFTP accounts and documents. */
export const EDI_ROUTES: AdminRoute[] = [
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
    { body: createPartnerSchema, bodyName: 'CreateTradingPartner' },
  ),
  partner(
    'get',
    '',
    'The trading partners the reader may see, oldest first',
    { 200: { description: 'one page', body: listOf('TradingPartner'), headers: NEXT_PAGE_HEADERS } },
    { query: listPartnersQuerySchema },
  ),
  partner('get', '/:id', 'One trading partner', { 200: ok('the partner', 'TradingPartner') }),
  partner(
    'patch',
    '/:id',
    "Change a partner's settings",
    { 200: ok('changed', 'TradingPartner'), ...BEYOND, 409: SETTINGS_CONFLICTS },
    { body: updatePartnerSchema, bodyName: 'UpdateTradingPartner' },
  ),
  partner('delete', '/:id', 'Delete a partner that never exchanged a document (one that did is disabled instead)', {
    204: { description: 'deleted' },
    ...BEYOND,
    409: error('PARTNER_HAS_DOCUMENTS: the partner exchanged documents; disable it'),
  }),
  partner('post', '/:id/disable', 'Disable a partner: its SFTP account, POST /edi and its advices stop', {
    200: ok('disabled', 'TradingPartner'),
    ...BEYOND,
  }),
  partner('post', '/:id/enable', 'Enable a disabled partner', {
    200: ok('enabled', 'TradingPartner'),
    ...BEYOND,
  }),
  partner('post', '/:id/sftp/password', "A new password for the partner's SFTP account, in this answer only", {
    200: ok('the account and its password', 'SftpPassword'),
    ...BEYOND,
  }),
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
    { body: addPublicKeySchema, bodyName: 'AddSftpPublicKey' },
  ),
  partner('delete', '/:id/sftp/keys/:fingerprint', 'Remove a public key, named by its fingerprint (URL-encoded)', {
    204: { description: 'removed' },
    ...BEYOND,
  }),
  partner(
    'get',
    '/:id/documents',
    "The partner's documents (interchanges both ways), newest first, by direction, state or set",
    { 200: { description: 'one page', body: listOf('EdiDocument'), headers: NEXT_PAGE_HEADERS } },
    { query: listDocumentsQuerySchema },
  ),
  partner(
    'get',
    '/:id/documents/:documentId',
    'One document: its text, its segments split with its own separators, its sets and errors, its acknowledgment',
    { 200: ok('the document', 'EdiDocumentDetail') },
  ),
  partner('post', '/:id/documents/:documentId/resend', 'Send an outbound document again, with new control numbers', {
    202: ok('written to out/', 'EdiInterchange'),
    ...BEYOND,
    409: NOT_SENDABLE,
  }),
  partner('post', '/:id/inventory-advice', "Send the partner's 846 now", {
    202: ok('written to out/', 'EdiInterchange'),
    ...BEYOND,
    409: NOT_SENDABLE,
  }),
];
