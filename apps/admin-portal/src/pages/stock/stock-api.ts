import { http, ok } from '../../api';
import type { paths } from '../../api/schema';

export type MovementsQuery = NonNullable<paths['/stock/movements']['get']['parameters']['query']>;
export type MovementsPage = paths['/stock/movements']['get']['responses']['200']['content']['application/json'];
export type Movement = MovementsPage['data'][number];
export type MovementCause = Movement['cause'];

export const stockApi = {
  /** One page of a stock item's movements, oldest first. */
  movements: (query: MovementsQuery) => ok(http.GET('/stock/movements', { params: { query } })),
  /** The order inquiry, for an order a movement names. */
  order: (orderNo: string, tenantId?: string) =>
    ok(http.GET('/orders/{orderNo}', { params: { path: { orderNo }, query: { tenantId } } })),
};

/** The causes whose document number is an order's. */
export const ORDER_CAUSES: MovementCause[] = ['allocation', 'pick', 'release'];
