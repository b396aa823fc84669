export { OrdersService } from './orders.service.js';
export { OrdersRepository, type LockedOrder } from './orders.repository.js';
export { FulfilmentRepository } from './fulfilment.repository.js';
export { orderIngestHandler, ORDER_BULK_LIMIT } from './orders.ingest.js';
export { orderSchema, orderRefSchema, ORDER_STATUSES, ORDER_LINES_MAX, type OrderInput, type OrderLineInput, type OrderStatus } from './order.schemas.js';
