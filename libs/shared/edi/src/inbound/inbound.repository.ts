import { QueryTypes } from 'sequelize';
import type { Database, UnitOfWork } from '@wms/platform';
import { nextTurnSql, type TurnUnits } from '@wms/ingest';
import { INTERCHANGE_COLUMNS } from '../interchanges/index.js';
import type { Interchange, InterchangeState } from '../interchanges/index.js';
import type { SetError } from '../x12/index.js';

/** Inbound interchanges queued for the engine: received or being read (dispatch/tenant-turns.ts). */
const QUEUED_INTERCHANGES: TurnUnits = {
  from: 'edi_interchanges q',
  queued: "q.direction = 'in' AND q.state IN ('received', 'processing') AND q.turn IS NOT NULL",
  tenant: 'q.tenant_id',
  turn: 'q.turn',
};

/** An inbound interchange queued for the engine, as the dispatcher hands it to the `edi` queue. */
export interface QueuedInterchange {
  id: string;
  tenantId: string;
  turn: number;
  handedBefore: boolean;
}

/** One inbound set's row: its control numbers, what it came to and the document it made. */
export interface InboundSetRow {
  functionalId: string;
  groupControl: string;
  setControl: string;
  setCode: string;
  state: 'accepted' | 'rejected';
  errors: SetError[];
  documentKind: string | null;
  documentRef: string | null;
}

/** One of our outbound sets a partner's 997 answers. */
export interface AcknowledgedSetRow {
  id: string;
  interchangeId: string;
  setCode: string;
  setControl: string;
}

const isUniqueViolation = (error: unknown) => error instanceof Error && error.name === 'SequelizeUniqueConstraintError';

/**
 * What the inbound engine reads and writes of `edi_interchanges` and `edi_transaction_sets` beyond the
 * scaffold's InterchangesRepository: turns and hand-overs, the exactly-once claims, the sets' rows, and the
 * marks a partner's 997 puts on our outbound sets.
 */
export class InboundRepository {
  constructor(private readonly db: Database) {}

  /** Gives a received interchange its tenant's next turn, in the transaction that stored it. */
  async queueTurn(interchangeId: string, tenantId: string, transaction: UnitOfWork): Promise<number> {
    const [rows] = (await this.db.sequelize.query(
      `UPDATE edi_interchanges SET turn = ${nextTurnSql(QUEUED_INTERCHANGES, '$2')}, dispatched_at = now()
        WHERE id = $1 RETURNING turn`,
      { bind: [interchangeId, tenantId], transaction },
    )) as [Array<{ turn: number }>, unknown];
    return rows[0]!.turn;
  }

  /** The interchange could not be handed to BullMQ at once: the dispatcher's next pass hands it. */
  async notDispatched(interchangeId: string): Promise<void> {
    await this.db.sequelize.query(`UPDATE edi_interchanges SET dispatched_at = NULL WHERE id = $1`, {
      bind: [interchangeId],
    });
  }

  /**
   * Runs `hand` over up to `limit` queued interchanges never handed to BullMQ or handed more than `staleMs`
   * ago (locked, SKIP LOCKED, so several dispatchers share the work) and records the hand-over.
   */
  async dispatch(
    limit: number,
    staleMs: number,
    hand: (units: QueuedInterchange[]) => Promise<string[]>,
    transaction: UnitOfWork,
  ): Promise<number> {
    {
      const rows = await this.db.sequelize.query<QueuedInterchange>(
        `SELECT q.id, q.tenant_id AS "tenantId", COALESCE(q.turn, 1) AS turn,
                q.dispatched_at IS NOT NULL AS "handedBefore"
           FROM edi_interchanges q
          WHERE q.direction = 'in' AND q.state IN ('received', 'processing')
            AND (q.dispatched_at IS NULL OR q.dispatched_at <= now() - $2 * interval '1 millisecond')
          ORDER BY q.dispatched_at NULLS FIRST
          LIMIT $1
          FOR UPDATE OF q SKIP LOCKED`,
        { bind: [limit, staleMs], type: QueryTypes.SELECT, transaction },
      );
      if (!rows.length) return 0;
      const added = await hand(rows);
      await this.db.sequelize.query(
        `UPDATE edi_interchanges SET dispatched_at = now() WHERE id = ANY($1::uuid[]) RETURNING id`,
        { bind: [rows.map((row) => row.id)], transaction },
      );
      return added.length;
    }
  }

  /** Marks a received interchange as being read; null when it is read already (another run finished it). */
  async start(interchangeId: string): Promise<Interchange | null> {
    const [rows] = (await this.db.sequelize.query(
      `UPDATE edi_interchanges i SET state = 'processing'
        WHERE i.id = $1 AND i.direction = 'in' AND i.state IN ('received', 'processing')
        RETURNING ${INTERCHANGE_COLUMNS}`,
      { bind: [interchangeId] },
    )) as [Interchange[], unknown];
    return rows[0] ?? null;
  }

  /** Locks an inbound interchange's row in `transaction`: true while it is still being read. */
  async lockProcessing(interchangeId: string, transaction: UnitOfWork): Promise<boolean> {
    const [rows] = (await this.db.sequelize.query(
      `SELECT i.id FROM edi_interchanges i WHERE i.id = $1 AND i.state = 'processing' FOR UPDATE`,
      { bind: [interchangeId], transaction },
    )) as [Array<{ id: string }>, unknown];
    return rows.length > 0;
  }

  /**
   * Claims the partner's ISA13 for this interchange: false when another canonical interchange of the partner
   * holds it (the unique index `edi_interchanges_inbound_once` decides, across processes).
   */
  async claimControl(interchangeId: string, control: string): Promise<boolean> {
    try {
      await this.db.sequelize.query(`UPDATE edi_interchanges SET interchange_control = $2 WHERE id = $1 RETURNING id`, {
        bind: [interchangeId, control],
      });
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  /** The canonical inbound interchange of a partner's ISA13 (the first one read). */
  async canonical(partnerId: string, control: string): Promise<Interchange | null> {
    const [rows] = (await this.db.sequelize.query(
      `SELECT ${INTERCHANGE_COLUMNS} FROM edi_interchanges i
        WHERE i.partner_id = $1 AND i.interchange_control = $2 AND i.direction = 'in'
          AND i.duplicate_of IS NULL AND i.state <> 'unreadable'`,
      { bind: [partnerId, control] },
    )) as [Interchange[], unknown];
    return rows[0] ?? null;
  }

  /** The rows of sets the partner sent before under these control numbers (any interchange). */
  async existingSets(
    partnerId: string,
    keys: Array<{ functionalId: string; groupControl: string; setControl: string }>,
    transaction?: UnitOfWork,
  ): Promise<InboundSetRow[]> {
    if (!keys.length) return [];
    return this.db.sequelize.query<InboundSetRow>(
      `SELECT s.functional_id AS "functionalId", s.group_control AS "groupControl", s.set_control AS "setControl",
              s.set_code AS "setCode", s.state, s.errors, s.document_kind AS "documentKind",
              s.document_ref AS "documentRef"
         FROM edi_transaction_sets s
        WHERE s.partner_id = $1 AND s.direction = 'in'
          AND (s.functional_id, s.group_control, s.set_control) IN
              (SELECT * FROM unnest($2::text[], $3::text[], $4::text[]))`,
      {
        bind: [
          partnerId,
          keys.map((key) => key.functionalId),
          keys.map((key) => key.groupControl),
          keys.map((key) => key.setControl),
        ],
        type: QueryTypes.SELECT,
        transaction,
      },
    );
  }

  /**
   * Records what the sets of a batch came to, in the batch's transaction. A set accepted before keeps its
   * row (it is never written twice); one rejected before is replaced by what it came to now.
   */
  async recordSets(
    interchange: Pick<Interchange, 'id' | 'tenantId' | 'partnerId'>,
    rows: InboundSetRow[],
    transaction: UnitOfWork,
  ): Promise<void> {
    if (!rows.length) return;
    await this.db.sequelize.query(
      `INSERT INTO edi_transaction_sets (interchange_id, tenant_id, partner_id, direction, set_code, functional_id,
                                         group_control, set_control, state, errors, document_kind, document_ref)
       SELECT $1, $2, $3, 'in', r.set_code, r.functional_id, r.group_control, r.set_control, r.state,
              r.errors::jsonb, r.document_kind, r.document_ref
         FROM unnest($4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[])
              AS r (set_code, functional_id, group_control, set_control, state, errors, document_kind, document_ref)
       ON CONFLICT (partner_id, functional_id, group_control, set_control) WHERE direction = 'in'
       DO UPDATE SET interchange_id = EXCLUDED.interchange_id, state = EXCLUDED.state, errors = EXCLUDED.errors,
                     document_kind = EXCLUDED.document_kind, document_ref = EXCLUDED.document_ref,
                     created_at = now()
               WHERE edi_transaction_sets.state = 'rejected'`,
      {
        bind: [
          interchange.id,
          interchange.tenantId,
          interchange.partnerId,
          rows.map((row) => row.setCode),
          rows.map((row) => row.functionalId),
          rows.map((row) => row.groupControl),
          rows.map((row) => row.setControl),
          rows.map((row) => row.state),
          rows.map((row) => JSON.stringify(row.errors)),
          rows.map((row) => row.documentKind),
          rows.map((row) => row.documentRef),
        ],
        transaction,
      },
    );
  }

  /** Ends an inbound interchange's reading: its state, what it held, its acknowledgment. */
  async finish(
    interchangeId: string,
    end: {
      state: InterchangeState;
      error: string | null;
      setCodes: string[];
      acknowledgmentId: string | null;
      duplicateOf?: string | null;
    },
    transaction: UnitOfWork,
  ): Promise<void> {
    await this.db.sequelize.query(
      `UPDATE edi_interchanges
          SET state = $2, error = $3, set_codes = $4::text[], acknowledgment_id = $5, duplicate_of = $6,
              processed_at = now()
        WHERE id = $1`,
      {
        bind: [interchangeId, end.state, end.error, end.setCodes, end.acknowledgmentId, end.duplicateOf ?? null],
        transaction,
      },
    );
  }

  /** Our outbound sets of one functional group (its GS01 and GS06), which the partner's 997 answers. */
  async outboundSets(partnerId: string, functionalId: string, groupControl: string): Promise<AcknowledgedSetRow[]> {
    return this.db.sequelize.query<AcknowledgedSetRow>(
      `SELECT s.id, s.interchange_id AS "interchangeId", s.set_code AS "setCode", s.set_control AS "setControl"
         FROM edi_transaction_sets s
        WHERE s.partner_id = $1 AND s.direction = 'out' AND s.functional_id = $2 AND s.group_control = $3`,
      { bind: [partnerId, functionalId, groupControl], type: QueryTypes.SELECT },
    );
  }

  /** Marks our outbound sets acknowledged or rejected by the partner's 997. */
  async acknowledgeSets(
    setIds: string[],
    state: 'acknowledged' | 'acknowledgment_rejected',
    errors: string[],
    transaction: UnitOfWork,
  ): Promise<void> {
    if (!setIds.length) return;
    await this.db.sequelize.query(
      `UPDATE edi_transaction_sets SET state = $2, errors = $3::jsonb, acknowledged_at = now()
        WHERE id = ANY($1::uuid[]) AND direction = 'out'`,
      { bind: [setIds, state, JSON.stringify(errors)], transaction },
    );
  }

  /** Marks our outbound interchanges as the partner's 997 found them, pointing at that 997. */
  async acknowledgeInterchanges(
    interchangeIds: string[],
    state: 'acknowledged' | 'acknowledged_with_errors' | 'acknowledgment_rejected',
    acknowledgmentId: string,
    transaction: UnitOfWork,
  ): Promise<void> {
    if (!interchangeIds.length) return;
    await this.db.sequelize.query(
      `UPDATE edi_interchanges SET state = $2, acknowledgment_id = $3, acknowledged_at = now()
        WHERE id = ANY($1::uuid[]) AND direction = 'out'`,
      { bind: [interchangeIds, state, acknowledgmentId], transaction },
    );
  }
}
