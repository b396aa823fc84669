import { AppError, type Database, type ListPage, type QuantityFormat } from '@wms/platform';
import { MovementsRepository } from './movements.repository.js';
import { encodeMovementCursor, type MovementView, type MovementsQuery } from './movement.schemas.js';

/** The inventory ledger's reads: a tenant's stock movements, filtered and paged. */
export class StockLedgerService {
  private readonly repository: MovementsRepository;

  constructor(db: Database) {
    this.repository = new MovementsRepository(db);
  }

  /**
   * One page of movements, oldest first; an unknown sku or warehouse is 400 REFERENCE_NOT_FOUND. Quantities
   * come as JSON numbers, or as exact decimal strings (`format` 'decimal') for an answer the API's version
   * renders.
   */
  async movements(
    tenantId: string,
    query: MovementsQuery,
    format: QuantityFormat = 'number',
  ): Promise<ListPage<MovementView>> {
    const rows = await this.repository.list(tenantId, query, format);
    if (!rows.length) {
      // An empty page may be an unknown sku or warehouse: a page with entries names known ones.
      const known = await this.repository.references(tenantId, query);
      if (!known.itemKnown) throw AppError.referenceNotFound(`Item SKU ${query.sku} not found`);
      if (!known.warehouseKnown) throw AppError.referenceNotFound(`Warehouse code ${query.warehouseCode} not found`);
    }
    const page = rows.slice(0, query.limit);
    const last = page[page.length - 1];
    return {
      data: page.map(({ cursor: _cursor, ...movement }) => movement),
      nextCursor: rows.length > query.limit && last ? encodeMovementCursor(last.cursor) : null,
    };
  }
}
