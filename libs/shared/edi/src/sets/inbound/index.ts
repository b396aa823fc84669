import type { SetMapper } from './set-mapping.js';
import { mapShipNotice } from './ship-notice.js';
import { mapStockTransferShipment } from './stock-transfer-shipment.js';
import { mapWarehouseShippingOrder } from './warehouse-shipping-order.js';

export * from './set-mapping.js';
export { mapShipNotice, mapStockTransferShipment, mapWarehouseShippingOrder };

/** The mapper of each inbound set that becomes a document (997 is read by the acknowledgment handling). */
export const INBOUND_SET_MAPPERS: Record<string, SetMapper> = {
  '940': mapWarehouseShippingOrder,
  '943': mapStockTransferShipment,
  '856': mapShipNotice,
};
