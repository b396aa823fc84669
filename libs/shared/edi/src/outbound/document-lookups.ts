import { EventsService } from '@wms/events';
import type { Database } from '@wms/platform';
import { AsnService, CatalogueService, OrdersService, StockService } from '@wms/warehouse';

/** The warehouse's reads an advice takes what its event lacks from (ship-to, units, lots, stock). */
export interface DocumentLookups {
  orders: Pick<OrdersService, 'inquire'>;
  asns: Pick<AsnService, 'inquire'>;
  catalogue: Pick<CatalogueService, 'item' | 'items'>;
  stock: Pick<StockService, 'levelsJson'>;
}

/** The lookups over the warehouse library's services. */
export function documentLookups(db: Database): DocumentLookups {
  return {
    orders: new OrdersService(db, new EventsService(db)),
    asns: new AsnService(db),
    catalogue: new CatalogueService(db),
    stock: new StockService(db),
  };
}
