import type { Transaction } from 'sequelize';
import type { AppError } from '@wms/platform';

/**
 * The warehouse's write kernel: the context a capability's write runs in and what writing one entry came to.
 * The integration API's single and bulk writes, and the portal's operations, call the services with these.
 */

/** What a created or updated entry reports: its id and its natural key fields. */
export type EntryRef = { id: string | null } & Record<string, unknown>;

/** What writing one entry came to: its reference (id and natural key) or the error that refused it. */
export type EntryOutcome =
  | {
      ok: true;
      created: boolean;
      data: EntryRef;
      /** A created document (ASN, order) in full: the answer of a single write instead of `data` + `created`. */
      document?: Record<string, unknown>;
    }
  | { ok: false; error: AppError };

/** Who asked for a write: an API key or a staff user. The inventory ledger records it with each stock change. */
export type WriteCaller = { apiKeyId: string } | { userId: string };

export interface WriteContext {
  tenantId: string;
  transaction: Transaction;
  /** The caller the write acts for; absent for the system's own work. */
  caller?: WriteCaller;
  /** A sandbox simulation's write: its stock changes enter the ledger with the cause `simulation`. */
  simulated?: boolean;
}

/** The context of a write that is one statement: it runs in the caller's transaction when there is one. */
export interface StatementContext {
  tenantId: string;
  transaction?: Transaction;
  /** Present when the statement writes a stored bulk job outside a transaction: it must run through it. */
  guard?: WriteGuard;
}

/**
 * Makes the one write statement of a stored bulk job take effect at most once, however often the job is
 * dispatched: the statement claims the job's row and stores what it returned in the same statement. A
 * later run of a job already written gets those rows back instead of writing again.
 */
export interface WriteGuard {
  /**
   * Runs `sqlOf(condition)`, a data-modifying statement whose source rows take `condition` (a WHERE
   * clause) so it writes nothing when the job was claimed already; `bind` are its parameters. Answers the
   * statement's RETURNING rows, or the rows it answered the first time. Throws BulkAlreadyWritten when
   * another run of the job holds or has taken the claim.
   */
  run<Row extends object>(sqlOf: (condition: string) => string, bind: unknown[]): Promise<Row[]>;
}

/** Another run of the same bulk job has written it (or is writing it now): this run writes nothing. */
export class BulkAlreadyWritten extends Error {
  override name = 'BulkAlreadyWritten';
  constructor() {
    super('the bulk job was written by another run');
  }
}
