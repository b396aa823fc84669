import type { AdminModule } from '@wms/identity';
import { Joi } from '@wms/platform';
import {
  adjustmentSchema,
  confirmPickSchema,
  cycleCountSchema,
  movementsQuerySchema,
  returnReceiptSchema,
  shipSchema,
} from '@wms/warehouse';
import { returnListQuerySchema, tenantQuerySchema } from '../routes/operations.routes.js';
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

const CONFLICT: AdminRoute['responses'] = {
  409: error("INVALID_STATE (the document's state forbids it) or an Idempotency-Key conflict"),
};

const operation = (
  module: AdminModule,
  method: 'get' | 'post',
  path: string,
  summary: string,
  responses: AdminRoute['responses'],
  extra: Partial<AdminRoute> = {},
): AdminRoute => ({
  method,
  path,
  tag: 'operations',
  access: moduleAccess(module, method),
  summary,
  // A tenant-bound user acts in its tenant; a cross-tenant user names one.
  query: tenantQuerySchema,
  ...(method === 'post' ? { idempotent: true } : {}),
  ...extra,
  responses: {
    ...INVALID,
    ...GUARDED,
    ...NOT_FOUND,
    ...(method === 'post' ? CONFLICT : {}),
    ...responses,
  },
});

/** The warehouse operations; every write runs in one transaction with the events it appends. */
export const OPERATION_ROUTES: AdminRoute[] = [
  operation('orders', 'get', '/orders/:orderNo', 'Order inquiry: the order, its lines, pick tasks and summary', {
    200: ok('the order', 'OrderInquiry'),
  }),
  operation('orders', 'post', '/orders/:orderNo/allocate', 'Allocate stock to an order, first expiry first', {
    200: ok('the order after allocation', 'OrderInquiry'),
  }),
  operation(
    'orders',
    'post',
    '/orders/:orderNo/release',
    'Release a fully allocated order: one pick task per allocation',
    {
      200: ok('the order with its pick tasks', 'OrderInquiry'),
    },
  ),
  operation(
    'orders',
    'post',
    '/pick-tasks/:id/confirm',
    'Confirm a pick task; the last one confirmed makes the order picked',
    { 200: ok('the task and the order status', 'ConfirmedPick') },
    { body: confirmPickSchema, bodyName: 'ConfirmPick', bodyRequired: false },
  ),
  operation(
    'orders',
    'post',
    '/orders/:orderNo/ship',
    'Ship a picked order in one shipment',
    { 201: ok('shipped', 'Shipment') },
    { body: shipSchema, bodyName: 'Ship', bodyRequired: false },
  ),
  operation(
    'inventory',
    'post',
    '/stock/adjustments',
    'Adjust the stock of one row by a signed quantity, with a reason',
    { 201: ok('adjusted', 'Adjustment') },
    { body: adjustmentSchema, bodyName: 'NewAdjustment' },
  ),
  operation(
    'inventory',
    'post',
    '/cycle-counts',
    'Record a count of one row; on hand is set to it where allocations allow',
    { 201: ok('counted', 'CycleCount') },
    { body: cycleCountSchema, bodyName: 'NewCycleCount' },
  ),
  operation(
    'inventory',
    'get',
    '/stock/movements',
    "A stock item's history: the inventory ledger's movements, oldest first, in cursor pages",
    { 200: ok('one page; nextCursor is null on the last', 'StockMovementsPage') },
    { query: movementsQuerySchema },
  ),
  ...returnRoutes(),
];

/** Customer returns (module inbound): the list, the inquiry, receive, cancel and close. */
function returnRoutes(): AdminRoute[] {
  const empty = (label: string) => ({ body: Joi.object({}).label(label), bodyName: label, bodyRequired: false });
  return [
    operation(
      'inbound',
      'get',
      '/returns',
      "The tenant's returns, oldest change first, by status",
      { 200: { description: 'one page', body: listOf('ReturnSummary'), headers: NEXT_PAGE_HEADERS } },
      { query: returnListQuerySchema },
    ),
    operation('inbound', 'get', '/returns/:rmaNo', 'Return inquiry: the return, its lines and its receipts', {
      200: ok('the return', 'Return'),
    }),
    operation(
      'inbound',
      'post',
      '/returns/:rmaNo/receive',
      'Receive returned goods: per line restock (default location RECEIVING), quarantine (default QUARANTINE, created on first use) or scrap (no stock)',
      {
        200: ok('the return after the receipt', 'Return'),
        409: error(
          'RECEIPT_EXCEEDS_RETURN (more than a line still expects), INVALID_STATE (not open or partially received) or an Idempotency-Key conflict',
        ),
      },
      { body: returnReceiptSchema, bodyName: 'ReturnReceipt' },
    ),
    operation(
      'inbound',
      'post',
      '/returns/:rmaNo/cancel',
      'Cancel an open return (nothing received yet)',
      { 200: ok('the cancelled return', 'Return') },
      empty('CancelReturnBody'),
    ),
    operation(
      'inbound',
      'post',
      '/returns/:rmaNo/close',
      'Close a received return, or a partially received one whose rest will not come (return.completed is then sent)',
      { 200: ok('the closed return', 'Return') },
      empty('CloseReturnBody'),
    ),
  ];
}
