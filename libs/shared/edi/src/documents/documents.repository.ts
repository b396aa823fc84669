import { cursorColumn, type CursorPosition, type Database } from '@wms/platform';
import { INTERCHANGE_COLUMNS } from '../interchanges/index.js';
import type { EdiDocument, EdiDocumentSet, DocumentsQuery } from './document.js';

/**
 * Overdue: an outbound interchange of advices still `sent` (no 997 yet) for longer than the partner's
 * ack_overdue_hours. Our own 997s and TA1s are never acknowledged, so never overdue.
 */
const OVERDUE = `(i.direction = 'out' AND i.state = 'sent' AND NOT (i.set_codes <@ ARRAY['997', 'TA1']::text[])
  AND i.created_at < now() - make_interval(hours => p.ack_overdue_hours)) AS overdue`;

/** How many of an interchange's sets the list shows the documents of. */
const LISTED_DOCUMENTS = 3;

const DOCUMENT_COLUMNS = `${INTERCHANGE_COLUMNS}, ${OVERDUE},
  (SELECT count(*)::int FROM edi_transaction_sets s WHERE s.interchange_id = i.id) AS "setCount",
  COALESCE((SELECT json_agg(json_build_object('kind', d.document_kind, 'ref', d.document_ref))
              FROM (SELECT s.document_kind, s.document_ref FROM edi_transaction_sets s
                     WHERE s.interchange_id = i.id AND s.document_ref IS NOT NULL
                     ORDER BY s.created_at, s.id LIMIT ${LISTED_DOCUMENTS}) d), '[]'::json) AS documents`;

/** The admin's reads of a partner's interchanges (`edi_interchanges`, `edi_transaction_sets`). */
export class DocumentsRepository {
  constructor(private readonly db: Database) {}

  /** Newest first by (created_at, id), on the index edi_interchanges_partner_list. */
  async page(
    partnerId: string,
    query: DocumentsQuery,
    limit: number,
  ): Promise<Array<EdiDocument & { cursor: CursorPosition }>> {
    const [rows] = (await this.db.sequelize.query(
      `SELECT ${DOCUMENT_COLUMNS}, ${cursorColumn('i.created_at', 'i.id')}
         FROM edi_interchanges i JOIN edi_trading_partners p ON p.id = i.partner_id
        WHERE i.partner_id = $1
          AND ($2::text IS NULL OR i.direction = $2)
          AND ($3::text IS NULL OR i.state = $3)
          AND ($4::text IS NULL OR $4 = ANY (i.set_codes))
          AND ($5::timestamptz IS NULL OR (i.created_at, i.id) < ($5::timestamptz, $6::uuid))
        ORDER BY i.created_at DESC, i.id DESC
        LIMIT $7`,
      {
        bind: [
          partnerId,
          query.direction ?? null,
          query.state ?? null,
          query.setCode ?? null,
          query.cursor?.updatedAt ?? null,
          query.cursor?.id ?? null,
          limit,
        ],
      },
    )) as [Array<EdiDocument & { cursor: CursorPosition }>, unknown];
    return rows;
  }

  /** One interchange of the partner, or null. */
  async find(partnerId: string, id: string): Promise<EdiDocument | null> {
    const [rows] = (await this.db.sequelize.query(
      `SELECT ${DOCUMENT_COLUMNS}
         FROM edi_interchanges i JOIN edi_trading_partners p ON p.id = i.partner_id
        WHERE i.partner_id = $1 AND i.id = $2`,
      { bind: [partnerId, id] },
    )) as [EdiDocument[], unknown];
    return rows[0] ?? null;
  }

  /** The first `limit` bytes of the interchange's text, and its whole size. */
  async rawHead(id: string, limit: number): Promise<Buffer | null> {
    const [rows] = (await this.db.sequelize.query(
      `SELECT substring(i.raw FROM 1 FOR $2) AS head FROM edi_interchanges i WHERE i.id = $1`,
      { bind: [id, limit] },
    )) as [Array<{ head: Buffer }>, unknown];
    return rows[0]?.head ?? null;
  }

  /** The interchange's sets in their order, at most `limit`. */
  async sets(interchangeId: string, limit: number): Promise<EdiDocumentSet[]> {
    const [rows] = (await this.db.sequelize.query(
      `SELECT s.id, s.direction, s.set_code AS "setCode", s.functional_id AS "functionalId",
              s.group_control AS "groupControl", s.set_control AS "setControl", s.state, s.errors,
              s.document_kind AS "documentKind", s.document_ref AS "documentRef", s.created_at AS "createdAt",
              s.acknowledged_at AS "acknowledgedAt"
         FROM edi_transaction_sets s
        WHERE s.interchange_id = $1
        ORDER BY s.group_control, s.set_control, s.id
        LIMIT $2`,
      { bind: [interchangeId, limit] },
    )) as [EdiDocumentSet[], unknown];
    return rows;
  }

  /** The interchanges that resent this one, newest first. */
  async resends(id: string): Promise<Array<{ id: string; state: string; createdAt: Date }>> {
    const [rows] = (await this.db.sequelize.query(
      `SELECT i.id, i.state, i.created_at AS "createdAt" FROM edi_interchanges i
        WHERE i.resent_from = $1 ORDER BY i.created_at DESC, i.id DESC LIMIT 50`,
      { bind: [id] },
    )) as [Array<{ id: string; state: string; createdAt: Date }>, unknown];
    return rows;
  }
}
