import { Joi, validate } from '@wms/platform';
import type { Database } from '@wms/platform';
import type { EventsService } from '@wms/events';
import { changeStock, type WriteContext } from '../writes/index.js';
import { DocumentNumbers } from '../numbering/index.js';
import { OrderOperationsRepository, requireState } from './order-operations.repository.js';
import { ShippingRepository, type ShipmentView } from './shipping.repository.js';

export interface ShipInput {
  carrier?: string;
  trackingNo?: string;
}

export const shipSchema = Joi.object<ShipInput>({
  carrier: Joi.string().trim().min(1).max(100),
  trackingNo: Joi.string().trim().min(1).max(100),
}).label('Ship');

/**
 * Shipping: a `picked` order leaves the warehouse in one shipment (`SHP-…`).
 * Picked stock already left its rows at pick; what short picks left reserved is given back to the rows
 * now; every line ships what it picked; `order.shipped` is appended in the same transaction.
 */
export class ShippingService {
  private readonly orders: OrderOperationsRepository;
  private readonly repository: ShippingRepository;
  private readonly numbers: DocumentNumbers;

  constructor(
    private readonly db: Database,
    private readonly events: Pick<EventsService, 'append'>,
  ) {
    this.orders = new OrderOperationsRepository(db);
    this.repository = new ShippingRepository(db);
    this.numbers = new DocumentNumbers(db);
  }

  async ship(context: WriteContext, orderNo: string, body: unknown): Promise<ShipmentView> {
    const { tenantId, transaction } = context;
    const input = validate(shipSchema, body ?? {});
    const order = await this.orders.lockByNumber(tenantId, orderNo, transaction);
    requireState(order, ['picked'], 'shipped');
    const remaining = await this.repository.remainingReservations(order.id, transaction);
    const shipmentNo = await this.numbers.next('SHP', transaction);
    await changeStock(
      this.db,
      context,
      { cause: 'shipment', documentNo: shipmentNo },
      remaining.map((hold) => ({ stockRowId: hold.stockRowId, onHand: 0, allocated: -hold.qty })),
    );
    await this.repository.closeLines(order.id, transaction);
    const trackingNo = input.trackingNo ?? null;
    const carrier = input.carrier ?? null;
    const shipmentId = await this.repository.insert(
      { tenantId, orderId: order.id, shipmentNo, carrier, trackingNo },
      transaction,
    );
    await this.orders.setStatus(order.id, 'shipped', transaction);
    await this.events.append(transaction, {
      tenantId,
      event: 'order.shipped',
      data: {
        orderNo: order.orderNo,
        referenceNo: order.referenceNo,
        shipmentNo,
        trackingNo,
        carrier,
        warehouseCode: order.warehouseCode,
        lines: await this.repository.shippedLots(order.id, transaction),
      },
    });
    return this.repository.view(shipmentId, transaction);
  }
}
