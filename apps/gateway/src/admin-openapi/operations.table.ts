import type { AdminModule } from '@wms/identity';
import {
  adjustmentSchema,
  confirmPickSchema,
  cycleCountSchema,
  movementsQuerySchema,
  shipSchema,
} from '@wms/warehouse';
import { tenantQuerySchema } from '../routes/operations.routes.js';
import { GUARDED, INVALID, NOT_FOUND, error, moduleAccess, ok, type AdminRoute } from './admin-route.js';

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
    ...responses,
    ...INVALID,
    ...GUARDED,
    ...NOT_FOUND,
    ...(method === 'post' ? CONFLICT : {}),
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
];
