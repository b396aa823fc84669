import { QueryTypes, type Transaction } from 'sequelize';
import type { Database } from '@wms/platform';
import { isoSql } from '../inventory/index.js';

export interface NewGrnLine {
  lineNo: number;
  asnLineId: string | null;
  itemId: string;
  uomCode: string;
  qty: number;
  lotNo: string;
  expiryDate: string | null;
  locationId: string;
  stockRowId: string;
}

export class GrnRepository {
  constructor(private readonly db: Database) {}

  /** Inserts the GRN and its lines; returns the header's id and creation time. */
  async insert(
    header: { tenantId: string; grnNo: string; asnId: string | null; warehouseId: string },
    lines: NewGrnLine[],
    transaction: Transaction,
  ): Promise<{ id: string; createdAt: string }> {
    const rows = await this.db.sequelize.query<{ id: string; createdAt: string }>(
      `WITH grn AS (
         INSERT INTO grns (tenant_id, grn_no, asn_id, warehouse_id) VALUES ($1, $2, $3, $4)
         RETURNING id, created_at),
       lines AS (
         INSERT INTO grn_lines (grn_id, line_no, asn_line_id, item_id, uom_code, qty, lot_no, expiry_date, location_id, stock_row_id)
         SELECT grn.id, r."lineNo", r."asnLineId", r."itemId", r."uomCode", r.qty, r."lotNo", r."expiryDate", r."locationId", r."stockRowId"
         FROM grn, json_to_recordset($5::json) AS r("lineNo" integer, "asnLineId" uuid, "itemId" uuid, "uomCode" text,
                                                     qty numeric, "lotNo" text, "expiryDate" date, "locationId" uuid, "stockRowId" uuid))
       SELECT id, ${isoSql('created_at')} AS "createdAt" FROM grn`,
      {
        bind: [header.tenantId, header.grnNo, header.asnId, header.warehouseId, JSON.stringify(lines)],
        type: QueryTypes.SELECT,
        transaction,
      },
    );
    return rows[0]!;
  }
}
