export { OrdersService } from './orders.service.js';
export { OrdersRepository, ORDER_INQUIRY_SQL, orderInquirySql, type LockedOrder } from './orders.repository.js';
export {
  orderSchema,
  orderRefSchema,
  ORDER_STATUSES,
  ORDER_LINES_MAX,
  type OrderInput,
  type OrderLineInput,
  type OrderStatus,
} from './order.schemas.js';
export { AllocationService, planFefo, type AllocationResult } from './allocation.service.js';
export { PickingService, confirmPickSchema, type ConfirmPickInput, type ConfirmedPick } from './picking.service.js';
export { ShippingService, shipSchema, type ShipInput } from './shipping.service.js';
export type { PickTaskView } from './picking.repository.js';
export type { ShipmentView } from './shipping.repository.js';
export {
  confirmedPickSchema,
  orderCancelledSchema,
  orderDocumentSchema,
  orderListItemSchema,
  shipmentSchema,
} from './order.answers.js';
