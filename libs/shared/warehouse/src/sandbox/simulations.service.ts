import { randomUUID } from 'node:crypto';
import type { Transaction } from 'sequelize';
import { AppError, type Database } from '@wms/platform';
import type { AppendEventInput, EventName, EventsService } from '@wms/events';
import type { WriteContext } from '../writes/index.js';
import { GrnService } from '../inbound/index.js';
import { AdjustmentsService, CycleCountsService } from '../inventory/index.js';
import { AllocationService, OrdersService, PickingService, ShippingService } from '../outbound/index.js';
import { ReturnReceiptsService } from '../returns/index.js';
import { RECEIVING_LOCATION_CODE, WarehousesService } from '../warehouses/index.js';
import {
  validateSimulation,
  type SimulationInput,
  type SimulationType,
  type StockPlace,
} from './simulation.schemas.js';

/** An event a simulation caused, as its answer lists it. */
export interface SimulationEvent {
  id: string;
  event: EventName;
}

export interface SimulationResult {
  simulationId: string;
  type: SimulationType;
  events: SimulationEvent[];
}

/** Who asked for a simulation: the API key (simulations act as the system, not as a user). */
export interface SimulationCaller {
  apiKeyId: string;
}

/** The audit log, as simulations write to it (the identity library's AuditService fits). */
export interface SimulationAudit {
  record(
    input: {
      action: string;
      entityType: string;
      entityId: string;
      tenantId: string | null;
      actorUserId: string | null;
      changes: Record<string, unknown>;
    },
    transaction: Transaction,
  ): Promise<void>;
}

const DEFAULT_REASON = 'sandbox simulation';

/** The warehouse operations of one simulation, over an outbox that notes every event they append. */
class Operations {
  readonly caused: SimulationEvent[] = [];
  readonly grns: GrnService;
  readonly orders: OrdersService;
  readonly allocation: AllocationService;
  readonly picking: PickingService;
  readonly shipping: ShippingService;
  readonly adjustments: AdjustmentsService;
  readonly cycleCounts: CycleCountsService;
  readonly returnReceipts: ReturnReceiptsService;

  constructor(db: Database, events: Pick<EventsService, 'append'>) {
    const noting: Pick<EventsService, 'append'> = {
      append: async (transaction: Transaction, input: AppendEventInput) => {
        const appended = await events.append(transaction, input);
        this.caused.push({ id: appended.id, event: appended.event });
        return appended;
      },
    };
    this.grns = new GrnService(db, noting);
    this.orders = new OrdersService(db, noting);
    this.allocation = new AllocationService(db, noting);
    this.picking = new PickingService(db, noting);
    this.shipping = new ShippingService(db, noting);
    this.adjustments = new AdjustmentsService(db, noting);
    this.cycleCounts = new CycleCountsService(db, noting);
    this.returnReceipts = new ReturnReceiptsService(db, noting);
  }
}

/**
 * Sandbox simulations: the real warehouse operations, run on a document or item of the tenant as staff would
 * run them, by the system (no user; the audit entry names the API key that asked), so the real events,
 * webhooks and feed entries follow. Everything runs in the caller's transaction: an operation that cannot
 * run throws, and nothing of the simulation stays (docs/adr/0173-sandbox-simulations.md).
 */
export class SimulationsService {
  private readonly warehouses: WarehousesService;

  constructor(
    private readonly db: Database,
    private readonly events: Pick<EventsService, 'append'>,
    private readonly audit: SimulationAudit,
  ) {
    this.warehouses = new WarehousesService(db);
  }

  async run(context: WriteContext, body: unknown, caller: SimulationCaller): Promise<SimulationResult> {
    const input = validateSimulation(body);
    const operations = new Operations(this.db, this.events);
    const simulated = { ...context, caller: context.caller ?? { apiKeyId: caller.apiKeyId }, simulated: true };
    await this.perform(simulated, input, operations);
    const simulationId = randomUUID();
    const { type: _type, ...target } = input;
    await this.audit.record(
      {
        action: 'simulation.run',
        entityType: 'simulation',
        entityId: simulationId,
        tenantId: context.tenantId,
        actorUserId: null,
        changes: { type: input.type, apiKeyId: caller.apiKeyId, ...target, events: operations.caused },
      },
      context.transaction,
    );
    return { simulationId, type: input.type, events: operations.caused };
  }

  private async perform(context: WriteContext, input: SimulationInput, operations: Operations): Promise<void> {
    switch (input.type) {
      case 'asn.received':
        await operations.grns.receiveOpenLines(context, input.asnNo);
        return;
      case 'order.shipped':
        await this.ship(context, input, operations);
        return;
      case 'stock.adjusted': {
        const { type: _type, reason, ...stock } = input;
        const place = await this.placeOf(context.tenantId, stock);
        await operations.adjustments.adjust(context, { ...stock, ...place, reason: reason ?? DEFAULT_REASON }, null);
        return;
      }
      case 'cyclecount.variance': {
        const { type: _type, ...count } = input;
        const place = await this.placeOf(context.tenantId, count);
        const result = await operations.cycleCounts.record(context, { ...count, ...place }, null);
        if (result.variance === 0) {
          throw AppError.conflict(
            'NO_VARIANCE',
            `Item SKU ${input.sku} at ${place.locationCode} has ${result.systemQty} on hand: a count of ${input.countedQty} is no variance`,
          );
        }
        return;
      }
      case 'return.received':
        await operations.returnReceipts.receiveOpenLines(context, input.rmaNo);
        return;
    }
  }

  /**
   * Takes the order from the state it is in to shipped: allocate (every line in full, or 409
   * INSUFFICIENT_STOCK), release, confirm every pick task in full, ship.
   */
  private async ship(
    context: WriteContext,
    input: Extract<SimulationInput, { type: 'order.shipped' }>,
    operations: Operations,
  ): Promise<void> {
    const { orderNo } = input;
    const order = await operations.orders.inquire(context.tenantId, orderNo, context.transaction);
    let status = String(order.status);
    if (status === 'shipped' || status === 'cancelled') {
      throw AppError.conflict('INVALID_STATE', `Order ${orderNo} is ${status} and cannot be shipped`);
    }
    if (status === 'open') {
      const allocation = await operations.allocation.allocate(context, orderNo);
      if (allocation.status !== 'allocated') {
        throw AppError.conflict(
          'INSUFFICIENT_STOCK',
          `Order ${orderNo} cannot be fully allocated: its warehouse has not enough stock available for every line`,
        );
      }
      status = allocation.status;
    }
    if (status === 'allocated') {
      await operations.picking.release(context, orderNo);
      status = 'released';
    }
    if (status === 'released') await operations.picking.pickAll(context, orderNo);
    await operations.shipping.ship(context, orderNo, { carrier: input.carrier, trackingNo: input.trackingNo });
  }

  /** The warehouse (the tenant's only one when none is named) and location (RECEIVING) of a stock change. */
  private async placeOf(
    tenantId: string,
    place: StockPlace,
  ): Promise<{ warehouseCode: string; locationCode: string; lotNo?: string }> {
    const locationCode = place.locationCode ?? RECEIVING_LOCATION_CODE;
    const lot = place.lotNo === undefined ? {} : { lotNo: place.lotNo };
    if (place.warehouseCode) return { warehouseCode: place.warehouseCode, locationCode, ...lot };
    const warehouses = await this.warehouses.list(tenantId);
    if (warehouses.length !== 1) {
      const message = `warehouseCode is required: the tenant has ${warehouses.length} warehouses`;
      throw AppError.validation(message, [{ path: 'warehouseCode', message }]);
    }
    return { warehouseCode: warehouses[0]!.code, locationCode, ...lot };
  }
}
