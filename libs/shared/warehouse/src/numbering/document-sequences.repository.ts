import { QueryTypes, type Transaction } from 'sequelize';
import type { Database } from '@wms/platform';

export type DocumentKind = 'ASN' | 'GRN' | 'SO' | 'SHP';

/** The PostgreSQL sequence of each kind; the name comes from this table, never from input. */
const SEQUENCES: Record<DocumentKind, string> = {
  ASN: 'asn_number_seq',
  GRN: 'grn_number_seq',
  SO: 'sales_order_number_seq',
  SHP: 'shipment_number_seq',
};

/** The sequences behind document numbers. */
export class DocumentSequencesRepository {
  constructor(private readonly db: Database) {}

  /** `count` values of the kind's sequence in one statement, each with the UTC day (YYYYMMDD) it was taken. */
  async next(
    kind: DocumentKind,
    count: number,
    transaction?: Transaction,
  ): Promise<Array<{ day: string; value: string }>> {
    return this.db.sequelize.query<{ day: string; value: string }>(
      `SELECT to_char(now() AT TIME ZONE 'UTC', 'YYYYMMDD') AS day, nextval('${SEQUENCES[kind]}')::text AS value
       FROM generate_series(1, $1)`,
      { bind: [count], type: QueryTypes.SELECT, transaction },
    );
  }
}
