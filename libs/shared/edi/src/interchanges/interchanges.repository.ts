import type { Database, UnitOfWork } from '@wms/platform';
import type { Interchange, InterchangeSource, InterchangeState } from './interchange.js';

export const INTERCHANGE_COLUMNS = `
  i.id, i.tenant_id AS "tenantId", i.partner_id AS "partnerId", i.direction, i.source, i.file_name AS "fileName",
  i.interchange_control AS "interchangeControl", i.set_codes AS "setCodes", i.size_bytes AS "sizeBytes", i.state,
  i.error, i.duplicate_of AS "duplicateOf", i.acknowledgment_id AS "acknowledgmentId", i.resent_from AS "resentFrom",
  i.source_event_id AS "sourceEventId", i.created_at AS "createdAt", i.processed_at AS "processedAt",
  i.acknowledged_at AS "acknowledgedAt"`;

/** A new interchange row: its bytes and where it came from; the rest starts empty. */
export interface NewInterchange {
  tenantId: string;
  partnerId: string;
  direction: 'in' | 'out';
  source: InterchangeSource;
  fileName: string | null;
  interchangeControl: string | null;
  setCodes: string[];
  raw: Buffer;
  state: InterchangeState;
  sourceEventId?: string | null;
  resentFrom?: string | null;
}

/** Interchanges both ways (`edi_interchanges`); the sets they hold are `TransactionSetsRepository`'s. */
export class InterchangesRepository {
  constructor(private readonly db: Database) {}

  async insert(row: NewInterchange, transaction: UnitOfWork): Promise<Interchange> {
    const [rows] = (await this.db.sequelize.query(
      `INSERT INTO edi_interchanges AS i (tenant_id, partner_id, direction, source, file_name, interchange_control,
                                          set_codes, raw, size_bytes, state, source_event_id, resent_from)
       VALUES ($1, $2, $3, $4, $5, $6, $7::text[], $8, $9, $10, $11, $12)
       RETURNING ${INTERCHANGE_COLUMNS}`,
      {
        bind: [
          row.tenantId,
          row.partnerId,
          row.direction,
          row.source,
          row.fileName,
          row.interchangeControl,
          row.setCodes,
          row.raw,
          row.raw.length,
          row.state,
          row.sourceEventId ?? null,
          row.resentFrom ?? null,
        ],
        transaction,
      },
    )) as [Interchange[], unknown];
    return rows[0]!;
  }

  async find(id: string, transaction?: UnitOfWork): Promise<Interchange | null> {
    const [rows] = (await this.db.sequelize.query(
      `SELECT ${INTERCHANGE_COLUMNS} FROM edi_interchanges i WHERE i.id = $1`,
      {
        bind: [id],
        transaction,
      },
    )) as [Interchange[], unknown];
    return rows[0] ?? null;
  }

  /** The interchange's bytes, as received or as written. */
  async raw(id: string, transaction?: UnitOfWork): Promise<Buffer | null> {
    const [rows] = (await this.db.sequelize.query(`SELECT i.raw FROM edi_interchanges i WHERE i.id = $1`, {
      bind: [id],
      transaction,
    })) as [Array<{ raw: Buffer }>, unknown];
    return rows[0]?.raw ?? null;
  }
}
