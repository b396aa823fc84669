import { createHash } from 'node:crypto';
import { QueryTypes, type Transaction } from 'sequelize';
import { PreparedStatement, type Database } from '@wms/platform';
import type { BulkResultText } from '../integration/index.js';
import type { IngestJobName, IngestLane } from './ingest.contract.js';
import { nextTurnSql, type TurnUnits } from '../dispatch/index.js';

export type BulkJobState = 'queued' | 'written' | 'completed' | 'failed';

/** A bulk call as accepted: everything a worker needs to run it, whatever Redis remembers. */
export interface NewBulkJob {
  id: string;
  /** A registered handler's name; the table keeps only names that were submitted so. */
  entity: IngestJobName;
  tenantId: string;
  apiKeyId: string;
  requestId: string;
  /** The W3C trace id the request came with, when it came with one. */
  traceId?: string;
  /** The lane it waits in: `sync` when its caller waits for the result (the default), else `async`. */
  lane?: IngestLane;
  entries: unknown[];
}

/** A job's state and result, without its entries. */
export interface BulkJobStatus {
  id: string;
  entity: IngestJobName;
  tenantId: string;
  apiKeyId: string;
  requestId: string;
  traceId: string | null;
  state: BulkJobState;
  lane: IngestLane;
  /** Its tenant's turn in its lane, which orders it in the ingest queue (ingestJobPriority). */
  turn: number;
  /** The stored result (JSON text) of a completed job. */
  result: string | null;
  /** The status of that result (success, or partial when an entry has an error). */
  resultStatus: BulkResultText['status'] | null;
}

/** What a worker reads to run a job. */
export interface StoredBulkJob extends BulkJobStatus {
  /** The entries as JSON text. */
  entries: string;
  /** What the job's one statement returned (JSON text), once written. */
  outcome: string | null;
}

/** How a submission met the table: a new job, a failed one given another run, or one already there. */
export type Submission = ({ kind: 'created' } | { kind: 'retried' } | { kind: 'existing'; state: BulkJobState }) & {
  /** The job's place in the ingest queue (see BulkJobStatus). */
  lane: IngestLane;
  turn: number;
};

export interface DispatchRow {
  id: string;
  entity: IngestJobName;
  tenantId: string;
  apiKeyId: string;
  requestId: string;
  traceId: string | null;
  state: BulkJobState;
  lane: IngestLane;
  turn: number;
  /** True when the job was handed to BullMQ before (the dispatcher checks whether Redis still has it). */
  handedBefore: boolean;
}

/** A job that has just ended, and whether its caller, answered 202, is told of its end (`bulk.completed`). */
export interface EndedBulkJob {
  id: string;
  entity: IngestJobName;
  tenantId: string;
  tellsEnd: boolean;
}

/** What a statement that ends a job returns (EndedBulkJob). */
const ENDED_COLUMNS = `id, entity, tenant_id AS "tenantId", (lane = 'async' OR answered_accepted) AS "tellsEnd"`;

const STATUS_COLUMNS = `id, entity, tenant_id AS "tenantId", api_key_id AS "apiKeyId", request_id AS "requestId",
  trace_id AS "traceId", state, lane, turn`;

// The statements every bulk call runs run as named prepared statements on a pooled connection: planned
// once per connection, and without Sequelize's query path, which costs more than they do.
// A job's turn is its tenant's next in its lane (dispatch/tenant-turns.ts): a tenant that comes to a busy
// lane takes turns with the tenants already there instead of jumping ahead of them or waiting behind all
// their queued work; turns start again at 1 when the lane drains.
const QUEUED_IN_LANE: TurnUnits = {
  from: 'bulk_jobs',
  queued: "lane = $8 AND state = 'queued'",
  tenant: 'tenant_id',
  turn: 'turn',
};
const submitStatement = new PreparedStatement<{
  inserted: boolean;
  state: BulkJobState;
  lane: IngestLane;
  turn: number;
}>(
  'bulk-job-submit',
  `INSERT INTO bulk_jobs AS b (id, entity, tenant_id, api_key_id, request_id, trace_id, entries, dispatched_at, lane, turn)
   VALUES ($1, $2, $3, $4, $5, $6, $7, now(), $8, ${nextTurnSql(QUEUED_IN_LANE, '$3')})
   ON CONFLICT (id) DO UPDATE SET state = 'queued', request_id = EXCLUDED.request_id,
     trace_id = EXCLUDED.trace_id, error = NULL, result = NULL, result_status = NULL, outcome = NULL, finished_at = NULL, dispatched_at = now(),
     lane = EXCLUDED.lane, turn = EXCLUDED.turn
   WHERE b.state = 'failed'
   RETURNING (xmax = 0) AS inserted, state, lane, turn`,
  // A bulk call's entries go over the link on a pool of their own: inquiries never wait behind them.
  'handOffs',
);
const statusStatement = new PreparedStatement<BulkJobStatus>(
  'bulk-job-status',
  `SELECT ${STATUS_COLUMNS}, result, result_status AS "resultStatus" FROM bulk_jobs WHERE id = $1`,
);
const loadStatement = new PreparedStatement<StoredBulkJob>(
  'bulk-job-load',
  `SELECT ${STATUS_COLUMNS}, entries, outcome, result, result_status AS "resultStatus" FROM bulk_jobs WHERE id = $1`,
);
const COMPLETE = `UPDATE bulk_jobs SET state = 'completed', result = $2, result_status = $3, outcome = NULL,
    finished_at = now() WHERE id = $1 AND state IN ('queued', 'written')`;
const completeStatement = new PreparedStatement<EndedBulkJob>(
  'bulk-job-complete',
  `${COMPLETE} RETURNING ${ENDED_COLUMNS}`,
);
// A job whose caller still waits for its answer tells no one of its end: completed without a transaction.
const completeUntoldStatement = new PreparedStatement<{ id: string }>(
  'bulk-job-complete-untold',
  `${COMPLETE} AND lane = 'sync' AND NOT answered_accepted RETURNING id`,
);

// A handler's guarded statement is the same text every time: it is prepared once per connection, under a
// name taken from its text.
const guardedStatements = new Map<string, PreparedStatement<object>>();

function guardedStatement(text: string): PreparedStatement<object> {
  let statement = guardedStatements.get(text);
  if (!statement) {
    const name = `bulk-guard-${createHash('sha1').update(text).digest('hex').slice(0, 16)}`;
    statement = new PreparedStatement(name, text);
    guardedStatements.set(text, statement);
  }
  return statement;
}

/** The bulk_jobs table: the durable record of every accepted bulk call. */
export class BulkJobsRepository {
  constructor(private readonly db: Database) {}

  /**
   * Stores an accepted bulk call as handed to BullMQ now (the caller adds it next; if that fails it calls
   * notDispatched). The same id again (a retry of one Idempotency-Key) finds the job already there, and
   * gives a failed one another run.
   */
  async submit(job: NewBulkJob): Promise<Submission> {
    const rows = await submitStatement.rows(this.db.sequelize, [
      job.id,
      job.entity,
      job.tenantId,
      job.apiKeyId,
      job.requestId,
      job.traceId ?? null,
      JSON.stringify(job.entries),
      job.lane ?? 'sync',
    ]);
    const row = rows[0];
    if (row) return { kind: row.inserted ? 'created' : 'retried', lane: row.lane, turn: row.turn };
    const existing = await this.status(job.id);
    // Purged between the insert and this read (a retention of seconds): store it again.
    if (!existing) return this.submit(job);
    return { kind: 'existing', state: existing.state, lane: existing.lane, turn: existing.turn };
  }

  /** The job could not be handed to BullMQ: the dispatcher hands it on its next pass. */
  async notDispatched(id: string): Promise<void> {
    await this.db.sequelize.query('UPDATE bulk_jobs SET dispatched_at = NULL WHERE id = $1', { bind: [id] });
  }

  async status(id: string): Promise<BulkJobStatus | null> {
    const rows = await statusStatement.rows(this.db.sequelize, [id]);
    return rows[0] ?? null;
  }

  async load(id: string): Promise<StoredBulkJob | null> {
    const rows = await loadStatement.rows(this.db.sequelize, [id]);
    return rows[0] ?? null;
  }

  /** Locks a job not yet written, in the transaction that writes it. False when it was written already. */
  async claim(id: string, transaction: Transaction): Promise<boolean> {
    const rows = await this.db.sequelize.query(
      `SELECT 1 FROM bulk_jobs WHERE id = $1 AND state = 'queued' FOR UPDATE`,
      { bind: [id], type: QueryTypes.SELECT, transaction },
    );
    return rows.length === 1;
  }

  /**
   * Stores the result of a job not yet completed: in the transaction given, else on a connection of its
   * own. False when another run completed it first.
   */
  /**
   * Stores the result of a job whose caller waits for it (sync lane, not answered 202), in one prepared
   * statement. False when the job is to tell its end (store it with `complete` in a transaction then) or
   * another run ended it first.
   */
  async completeUntold(id: string, result: BulkResultText): Promise<boolean> {
    return (await completeUntoldStatement.rows(this.db.sequelize, [id, result.json, result.status])).length === 1;
  }

  /** Stores the result of a job not ended yet; answers the job, or null when another run ended it first. */
  async complete(id: string, result: BulkResultText, transaction?: Transaction): Promise<EndedBulkJob | null> {
    const values = [id, result.json, result.status];
    if (!transaction) return (await completeStatement.rows(this.db.sequelize, values))[0] ?? null;
    const rows = await this.db.sequelize.query<EndedBulkJob>(completeStatement.text, {
      bind: values,
      type: QueryTypes.SELECT,
      transaction,
    });
    return rows[0] ?? null;
  }

  /**
   * The gateway's wait for the job ran out and it answers 202: the job will tell its end (`bulk.completed`).
   * False when the job ended meanwhile: the caller is answered its outcome instead. In the caller's unit of
   * work, whose `lockTimeoutMs` bounds the wait for the row's lock (a run writing the job, a dispatcher's
   * pass, a stuck session hold it): past that PostgreSQL refuses the statement (`lock_not_available`), and
   * the job is not marked.
   */
  async markAnsweredAccepted(id: string, transaction: Transaction): Promise<boolean> {
    const rows = await this.db.sequelize.query(
      `UPDATE bulk_jobs SET answered_accepted = true WHERE id = $1 AND state IN ('queued', 'written') RETURNING id`,
      { bind: [id], type: QueryTypes.SELECT, transaction },
    );
    return rows.length === 1;
  }

  /**
   * A synchronous job that ended untold while its caller's 202 could not be marked (its row was locked):
   * marks it answered 202 now and answers it with its stored result (null when it failed), once, or null
   * when it is unfinished, was told already, or its caller got its result.
   */
  async claimUntoldEnd(
    id: string,
    transaction: Transaction,
  ): Promise<(EndedBulkJob & { result: string | null }) | null> {
    const rows = await this.db.sequelize.query<EndedBulkJob & { result: string | null }>(
      `UPDATE bulk_jobs SET answered_accepted = true
        WHERE id = $1 AND state IN ('completed', 'failed') AND lane = 'sync' AND NOT answered_accepted
        RETURNING ${ENDED_COLUMNS}, result`,
      { bind: [id], type: QueryTypes.SELECT, transaction },
    );
    return rows[0] ?? null;
  }

  /**
   * Runs a job's one statement (`sqlOf(condition)`, with `bind` as its parameters) so that, atomically, it
   * locks the job's row if still `queued`, writes only then, and marks the row `written` with what it
   * returned. Answers the statement's rows: none when the row was not `queued` (another run has it).
   */
  async runGuarded<Row extends object>(
    id: string,
    sqlOf: (condition: string) => string,
    bind: unknown[],
  ): Promise<Row[]> {
    const jobParam = `$${bind.length + 1}`;
    const text = `WITH job AS (SELECT id FROM bulk_jobs WHERE id = ${jobParam} AND state = 'queued' FOR UPDATE),
       written AS (${sqlOf('WHERE EXISTS (SELECT 1 FROM job)')}),
       marked AS (
         UPDATE bulk_jobs SET state = 'written',
                outcome = (SELECT coalesce(json_agg(written), '[]')::text FROM written)
          WHERE id = (SELECT id FROM job))
       SELECT * FROM written`;
    return (await guardedStatement(text).rows(this.db.sequelize, [...bind, id])) as Row[];
  }

  /** Marks a job that was never written as failed (every attempt failed, or it can never run). */
  /** Marks a job not yet written failed; answers the job, or null when it had ended or was written. */
  async fail(id: string, error: string, transaction?: Transaction): Promise<EndedBulkJob | null> {
    const rows = await this.db.sequelize.query<EndedBulkJob>(
      `UPDATE bulk_jobs SET state = 'failed', error = $2, finished_at = now() WHERE id = $1 AND state = 'queued'
       RETURNING ${ENDED_COLUMNS}`,
      { bind: [id, error.slice(0, 1_000)], type: QueryTypes.SELECT, ...(transaction ? { transaction } : {}) },
    );
    return rows[0] ?? null;
  }

  /**
   * Runs `hand` over up to `limit` unfinished jobs never handed to BullMQ or handed more than `staleMs`
   * ago, locked (SKIP LOCKED: several dispatchers share the work), and records the hand-over of the ids
   * it answers in the same transaction, the caller's unit of work. A hand that throws leaves every row as it
   * was.
   */
  async dispatch(
    limit: number,
    staleMs: number,
    hand: (rows: DispatchRow[]) => Promise<string[]>,
    transaction: Transaction,
  ): Promise<number> {
    const rows = await this.db.sequelize.query<DispatchRow>(
      `SELECT ${STATUS_COLUMNS}, dispatched_at IS NOT NULL AS "handedBefore" FROM bulk_jobs
        WHERE state IN ('queued', 'written')
          AND (dispatched_at IS NULL OR dispatched_at <= now() - $2 * interval '1 millisecond')
        ORDER BY dispatched_at NULLS FIRST
        LIMIT $1
        FOR UPDATE SKIP LOCKED`,
      { bind: [limit, staleMs], type: QueryTypes.SELECT, transaction },
    );
    if (!rows.length) return 0;
    const handed = await hand(rows);
    await this.db.sequelize.query('UPDATE bulk_jobs SET dispatched_at = now() WHERE id = ANY($1::text[])', {
      bind: [rows.map((row) => row.id)],
      transaction,
    });
    return handed.length;
  }

  /** Deletes finished jobs older than the retention, a bounded number per call. */
  async purgeFinished(retentionSeconds: number, limit = 1_000): Promise<number> {
    const deleted = await this.db.sequelize.query(
      `DELETE FROM bulk_jobs WHERE id IN (
         SELECT id FROM bulk_jobs WHERE finished_at <= now() - $1 * interval '1 second'
          LIMIT $2 FOR UPDATE SKIP LOCKED)
       RETURNING id`,
      { bind: [retentionSeconds, limit], type: QueryTypes.SELECT },
    );
    return deleted.length;
  }
}
