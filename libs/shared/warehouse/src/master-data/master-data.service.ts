import type { Database } from '@wms/platform';
import { AppError } from '@wms/platform';
import type { EntryOutcome, StatementContext } from '../writes/index.js';
import { MasterDataRepository, type UpsertedRow } from './master-data.repository.js';
import type { ItemInput, LocationInput, PartnerInput } from './master-data.schemas.js';

/**
 * Create-or-update of items (by sku), partners (by code) and locations (by warehouseCode and code)
 * within one tenant. Each call is one write statement, in the caller's transaction when it has one, so
 * the gateway's single write and the worker's bulk write are the same code path. Answers are aligned with the entries given.
 */
export class MasterDataService {
  private readonly repository: MasterDataRepository;

  constructor(db: Database) {
    this.repository = new MasterDataRepository(db);
  }

  async upsertItems(context: StatementContext, items: ItemInput[]): Promise<EntryOutcome[]> {
    const rows = await this.repository.upsertItems(context, items);
    return alignOutcomes(
      items.map((item) => item.sku),
      rows,
      (item, row) => ({ id: row.id, sku: item }),
    );
  }

  async upsertPartners(context: StatementContext, partners: PartnerInput[]): Promise<EntryOutcome[]> {
    const rows = await this.repository.upsertPartners(context, partners);
    return alignOutcomes(
      partners.map((partner) => partner.code),
      rows,
      (code, row) => ({ id: row.id, code }),
    );
  }

  /** A warehouse code unknown in the tenant (another tenant's included) refuses that entry only. */
  async upsertLocations(context: StatementContext, locations: LocationInput[]): Promise<EntryOutcome[]> {
    const { tenantId, transaction } = context;
    const codes = [...new Set(locations.map((location) => location.warehouseCode))];
    const warehouseIds = await this.repository.warehouseIdsByCode(tenantId, codes, transaction);
    const known = locations.flatMap((location) => {
      const warehouseId = warehouseIds.get(location.warehouseCode);
      return warehouseId ? [{ ...location, warehouseId }] : [];
    });
    const rows = known.length ? await this.repository.upsertLocations(context, known) : [];
    const byKey = new Map(rows.map((row) => [row.key, row]));
    return locations.map((location): EntryOutcome => {
      const warehouseId = warehouseIds.get(location.warehouseCode);
      if (!warehouseId)
        return { ok: false, error: AppError.referenceNotFound(`Warehouse code ${location.warehouseCode} not found`) };
      const row = byKey.get(`${warehouseId}/${location.code}`);
      if (!row) throw new Error(`location upsert returned no row for ${location.warehouseCode}/${location.code}`);
      return {
        ok: true,
        created: row.created,
        data: { id: row.id, warehouseCode: location.warehouseCode, code: location.code },
      };
    });
  }
}

function alignOutcomes(
  keys: string[],
  rows: UpsertedRow[],
  toData: (key: string, row: UpsertedRow) => { id: string } & Record<string, unknown>,
): EntryOutcome[] {
  const byKey = new Map(rows.map((row) => [row.key, row]));
  return keys.map((key) => {
    const row = byKey.get(key);
    // Every key of the batch is inserted or updated; a missing row is a bug, not an entry error.
    if (!row) throw new Error(`upsert returned no row for key ${key}`);
    return { ok: true, created: row.created, data: toData(key, row) };
  });
}
