import { http, ok, okPage, type ReturnReceiptInput, type ReturnStatus } from '../../api';

export type { Disposition, ReturnDocument, ReturnReceiptInput, ReturnStatus, ReturnSummary } from '../../api';

/** The staff API of returns (module inbound); a cross-tenant user names the tenant. */
export const returnsApi = {
  /**
   * One page of returns, oldest change first; `referenceNo` is the shop's reference of the returned order;
   * `cursor` is the page before's `nextCursor`.
   */
  list: (tenantId: string | undefined, filter: ReturnFilter, cursor?: string) =>
    okPage(http.GET('/returns', { params: { query: { tenantId, ...filter, cursor, limit: 100 } } })),
  get: (rmaNo: string, tenantId: string | undefined) =>
    ok(http.GET('/returns/{rmaNo}', { params: { path: { rmaNo }, query: { tenantId } } })),
  receive: (rmaNo: string, tenantId: string | undefined, body: ReturnReceiptInput) =>
    ok(http.POST('/returns/{rmaNo}/receive', { params: { path: { rmaNo }, query: { tenantId } }, body })),
  cancel: (rmaNo: string, tenantId: string | undefined) =>
    ok(http.POST('/returns/{rmaNo}/cancel', { params: { path: { rmaNo }, query: { tenantId } }, body: {} })),
  close: (rmaNo: string, tenantId: string | undefined) =>
    ok(http.POST('/returns/{rmaNo}/close', { params: { path: { rmaNo }, query: { tenantId } }, body: {} })),
};

export interface ReturnFilter {
  status?: ReturnStatus;
  referenceNo?: string;
}

/** The badge colours whose light variant app.css darkens for contrast. */
export const STATUS_COLORS: Record<ReturnStatus, string> = {
  open: 'gray',
  partially_received: 'orange',
  received: 'green',
  closed: 'gray',
  cancelled: 'red',
};

export const STATUS_LABELS: Record<ReturnStatus, string> = {
  open: 'Open',
  partially_received: 'Partially received',
  received: 'Received',
  closed: 'Closed',
  cancelled: 'Cancelled',
};
