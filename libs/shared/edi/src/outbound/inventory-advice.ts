import { decodeCursor } from '@wms/platform';
import type { TradingPartner } from '../partners/index.js';
import { inventoryAdvice846, x12Sum, type Quantity, type WarehouseStock } from '../sets/index.js';
import { x12Dates } from '../x12/index.js';
import type { DocumentLookups } from './document-lookups.js';
import type { OutboundDocument } from './outbound-writer.js';

/** Items read per page of the catalogue, and so per stock levels call (its limit). */
const ITEMS_PER_PAGE = 100;

type Level = {
  sku: string;
  stocks: Array<{ warehouseCode: string; qtyOnHand: Quantity; qtyAvailable: Quantity }>;
};

/**
 * The tenant's stock per warehouse and item, read through the warehouse's catalogue (every item, a page at a
 * time) and stock levels (exact decimal quantities), summed exactly over locations and lots.
 */
export async function tenantStock(lookups: DocumentLookups, tenantId: string): Promise<WarehouseStock[]> {
  const byWarehouse = new Map<string, Map<string, { uomCode: string; onHand: Quantity[]; available: Quantity[] }>>();
  let cursor: string | null = null;
  do {
    const page = await lookups.catalogue.items(tenantId, {
      limit: ITEMS_PER_PAGE,
      ...(cursor ? { cursor: decodeCursor(cursor)! } : {}),
    });
    cursor = page.nextCursor;
    if (page.data.length === 0) break;
    const units = new Map(page.data.map((item) => [item.sku, item.baseUomCode]));
    const levels = JSON.parse(
      await lookups.stock.levelsJson(tenantId, { sku: page.data.map((item) => item.sku) }, 'decimal'),
    ) as Level[];
    for (const level of levels) {
      for (const row of level.stocks) {
        let items = byWarehouse.get(row.warehouseCode);
        if (!items) byWarehouse.set(row.warehouseCode, (items = new Map()));
        let item = items.get(level.sku);
        if (!item) items.set(level.sku, (item = { uomCode: units.get(level.sku) ?? 'EA', onHand: [], available: [] }));
        item.onHand.push(row.qtyOnHand);
        item.available.push(row.qtyAvailable);
      }
    }
  } while (cursor);
  return [...byWarehouse.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([warehouseCode, items]) => ({
      warehouseCode,
      items: [...items.entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([sku, item]) => ({
          sku,
          uomCode: item.uomCode,
          onHand: x12Sum(item.onHand),
          available: x12Sum(item.available),
        })),
    }));
}

/**
 * The 846s of a partner: one set per warehouse of its tenant holding stock (one functional group), or one
 * without items for the partner's warehouse when the tenant holds none.
 */
export async function inventoryAdviceDocuments(
  lookups: DocumentLookups,
  partner: TradingPartner,
  at: Date,
): Promise<OutboundDocument[]> {
  const stock = await tenantStock(lookups, partner.tenantId);
  const warehouses = stock.length > 0 ? stock : [{ warehouseCode: partner.warehouseCode ?? '', items: [] }];
  const { ccyymmdd, hhmm } = x12Dates(at);
  return warehouses.map((warehouse) => ({
    set: inventoryAdvice846(warehouse, `${ccyymmdd}${hhmm}`, { date: ccyymmdd, time: hhmm }),
    documentKind: 'inventory',
    documentRef: warehouse.warehouseCode,
  }));
}
