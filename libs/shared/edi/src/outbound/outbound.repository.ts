import type { Database, UnitOfWork } from '@wms/platform';
import { INTERCHANGE_COLUMNS, type Interchange } from '../interchanges/index.js';

/** One outbound transaction set as written: where it sits in its interchange and the document it tells of. */
export interface OutboundSetRow {
  interchangeId: string;
  tenantId: string;
  partnerId: string;
  setCode: string;
  functionalId: string;
  groupControl: string;
  setControl: string;
  /** `order`, `asn`, `stock`, `inventory`: what our document is; null when none. */
  documentKind: string | null;
  /** The order's referenceNo, the ASN's asnNo, the stock position or the warehouse. */
  documentRef: string | null;
}

/** The sets that an acknowledgment never answers (they are acknowledgments themselves). */
const ACKNOWLEDGMENT_SETS = `ARRAY['997', 'TA1']::text[]`;

/** An unacknowledged outbound interchange is overdue past its partner's `ack_overdue_hours`. */
const OVERDUE = `i.created_at <= now() - make_interval(hours => p.ack_overdue_hours)`;

/** The outbound side's reads and writes of `edi_interchanges` and `edi_transaction_sets`. */
export class OutboundRepository {
  constructor(private readonly db: Database) {}

  /** The interchange first written for an event (a resend is not it), or null. */
  async findByEvent(partnerId: string, eventId: string, transaction?: UnitOfWork): Promise<Interchange | null> {
    const [rows] = (await this.db.sequelize.query(
      `SELECT ${INTERCHANGE_COLUMNS} FROM edi_interchanges i
        WHERE i.partner_id = $1 AND i.source_event_id = $2 AND i.direction = 'out' AND i.resent_from IS NULL`,
      { bind: [partnerId, eventId], transaction },
    )) as [Interchange[], unknown];
    return rows[0] ?? null;
  }

  async insertSets(sets: OutboundSetRow[], transaction: UnitOfWork): Promise<void> {
    if (sets.length === 0) return;
    await this.db.sequelize.query(
      `INSERT INTO edi_transaction_sets (interchange_id, tenant_id, partner_id, direction, set_code, functional_id,
                                         group_control, set_control, state, document_kind, document_ref)
       SELECT r.interchange_id, r.tenant_id, r.partner_id, 'out', r.set_code, r.functional_id, r.group_control,
              r.set_control, 'sent', r.document_kind, r.document_ref
         FROM json_to_recordset($1::json) AS r(interchange_id uuid, tenant_id uuid, partner_id uuid, set_code text,
              functional_id text, group_control text, set_control text, document_kind text, document_ref text)`,
      {
        bind: [
          JSON.stringify(
            sets.map((set) => ({
              interchange_id: set.interchangeId,
              tenant_id: set.tenantId,
              partner_id: set.partnerId,
              set_code: set.setCode,
              functional_id: set.functionalId,
              group_control: set.groupControl,
              set_control: set.setControl,
              document_kind: set.documentKind,
              document_ref: set.documentRef,
            })),
          ),
        ],
        transaction,
      },
    );
  }

  /** The sets of an interchange, in their order (ST02). */
  async setsOf(interchangeId: string): Promise<OutboundSetRow[]> {
    const [rows] = (await this.db.sequelize.query(
      `SELECT s.interchange_id AS "interchangeId", s.tenant_id AS "tenantId", s.partner_id AS "partnerId",
              s.set_code AS "setCode", s.functional_id AS "functionalId", s.group_control AS "groupControl",
              s.set_control AS "setControl", s.document_kind AS "documentKind", s.document_ref AS "documentRef"
         FROM edi_transaction_sets s WHERE s.interchange_id = $1 ORDER BY s.set_control`,
      { bind: [interchangeId] },
    )) as [OutboundSetRow[], unknown];
    return rows;
  }

  /** Whether the partner sent us this document over EDI (an inbound set it was read into). */
  async sentByPartner(partnerId: string, documentKind: 'order' | 'asn', documentRef: string): Promise<boolean> {
    const [rows] = (await this.db.sequelize.query(
      `SELECT 1 FROM edi_transaction_sets s
        WHERE s.partner_id = $1 AND s.direction = 'in' AND s.document_kind = $2 AND s.document_ref = $3
        LIMIT 1`,
      { bind: [partnerId, documentKind, documentRef] },
    )) as [unknown[], unknown];
    return rows.length > 0;
  }

  /** Outbound interchanges still waiting for the partner's 997, over every partner: all and overdue. */
  async unacknowledgedCounts(): Promise<{ overdue: number; waiting: number }> {
    const [rows] = (await this.db.sequelize.query(
      `SELECT count(*) FILTER (WHERE ${OVERDUE})::int AS overdue, count(*) FILTER (WHERE NOT (${OVERDUE}))::int AS waiting
         FROM edi_interchanges i JOIN edi_trading_partners p ON p.id = i.partner_id
        WHERE i.direction = 'out' AND i.state = 'sent' AND NOT (i.set_codes && ${ACKNOWLEDGMENT_SETS})`,
    )) as [Array<{ overdue: number; waiting: number }>, unknown];
    return rows[0] ?? { overdue: 0, waiting: 0 };
  }

  /** A partner's outbound interchanges waiting for its 997, oldest first, each with whether it is overdue. */
  async unacknowledgedOf(
    partnerId: string,
    options: { overdueOnly?: boolean; limit?: number } = {},
  ): Promise<Array<Interchange & { overdue: boolean }>> {
    const [rows] = (await this.db.sequelize.query(
      `SELECT ${INTERCHANGE_COLUMNS}, (${OVERDUE}) AS overdue
         FROM edi_interchanges i JOIN edi_trading_partners p ON p.id = i.partner_id
        WHERE i.partner_id = $1 AND i.direction = 'out' AND i.state = 'sent'
          AND NOT (i.set_codes && ${ACKNOWLEDGMENT_SETS})
          AND (NOT $2::boolean OR ${OVERDUE})
        ORDER BY i.created_at, i.id
        LIMIT $3`,
      { bind: [partnerId, options.overdueOnly ?? false, options.limit ?? 100] },
    )) as [Array<Interchange & { overdue: boolean }>, unknown];
    return rows;
  }
}
