import { MAX_PAGE, allPages, http, ok, okPage } from './client';
import type { components, paths } from './schema';

type Schemas = components['schemas'];

export type TradingPartner = Schemas['TradingPartner'];
export type TradingPartnerInput = Schemas['CreateTradingPartner'];
export type TradingPartnerPatch = Schemas['UpdateTradingPartner'];
export type SftpPassword = Schemas['SftpPassword'];
export type SftpPublicKey = Schemas['SftpPublicKey'];
export type EdiDocument = Schemas['EdiDocument'];
export type EdiDocumentDetail = Schemas['EdiDocumentDetail'];
export type EdiDocumentState = EdiDocument['state'];
export type EdiDocumentsQuery = NonNullable<paths['/edi/partners/{id}/documents']['get']['parameters']['query']>;

const byId = (id: string) => ({ params: { path: { id } } });

export const ediApi = {
  list: (): Promise<TradingPartner[]> =>
    allPages((cursor) => okPage(http.GET('/edi/partners', { params: { query: { limit: MAX_PAGE, cursor } } }))),
  get: (id: string) => ok(http.GET('/edi/partners/{id}', byId(id))),
  create: (input: TradingPartnerInput) => ok(http.POST('/edi/partners', { body: input })),
  update: (id: string, patch: TradingPartnerPatch) =>
    ok(http.PATCH('/edi/partners/{id}', { ...byId(id), body: patch })),
  disable: (id: string) => ok(http.POST('/edi/partners/{id}/disable', byId(id))),
  enable: (id: string) => ok(http.POST('/edi/partners/{id}/enable', byId(id))),
  remove: (id: string) => ok(http.DELETE('/edi/partners/{id}', byId(id))),
  /** A new SFTP password, answered this once. */
  newPassword: (id: string) => ok(http.POST('/edi/partners/{id}/sftp/password', byId(id))),
  addKey: (id: string, publicKey: string) =>
    ok(http.POST('/edi/partners/{id}/sftp/keys', { ...byId(id), body: { publicKey } })),
  removeKey: (id: string, fingerprint: string) =>
    ok(http.DELETE('/edi/partners/{id}/sftp/keys/{fingerprint}', { params: { path: { id, fingerprint } } })),
  documents: (id: string, query: EdiDocumentsQuery) =>
    okPage(http.GET('/edi/partners/{id}/documents', { params: { path: { id }, query } })),
  document: (id: string, documentId: string) =>
    ok(http.GET('/edi/partners/{id}/documents/{documentId}', { params: { path: { id, documentId } } })),
  resend: (id: string, documentId: string) =>
    ok(http.POST('/edi/partners/{id}/documents/{documentId}/resend', { params: { path: { id, documentId } } })),
  inventoryAdvice: (id: string) => ok(http.POST('/edi/partners/{id}/inventory-advice', byId(id))),
  /** The partner's audit trail (needs the `audit` module). */
  auditTrail: (id: string) =>
    ok(http.GET('/audit-logs', { params: { query: { entityType: 'edi_trading_partner', entityId: id, limit: 100 } } })),
};
