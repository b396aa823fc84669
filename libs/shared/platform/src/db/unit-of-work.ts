import { QueryTypes, type Transaction } from 'sequelize';
import { refusePastDeadline } from '../context/index.js';
import type { Database } from './models.js';

/**
 * The transaction the writes of one unit of work share. Services and repositories take it as a
 * parameter; only `unitOfWork` opens one, so an app never needs Sequelize itself.
 */
export type UnitOfWork = Transaction;

/** How one unit of work ends, when not as usual (committed when it resolves, rolled back when it throws). */
export interface UnitOfWorkOptions {
  /**
   * Rolls the work back even when it resolves, and answers its result: a dry run, whose writes are tried
   * (their constraints, their answers) and then kept by no one.
   */
  dryRun?: boolean;
  /**
   * How long, in milliseconds, the work's statements wait for a row lock another transaction holds, for this
   * transaction only (`SET LOCAL lock_timeout`), in place of the connection's bound (ADR 0130): past it
   * PostgreSQL refuses the statement (`lock_not_available`, answered 503 `LOCK_TIMEOUT`). For a write that
   * must give up sooner than the work around it would wait.
   */
  lockTimeoutMs?: number;
}

/** What a unit of work needs of its database: its Sequelize (a migration has only that, not the models). */
export type UnitOfWorkDatabase = Pick<Database, 'sequelize'>;

/** Carries a dry run's result out of its transaction, which Sequelize rolls back on a throw. */
class DryRunResult<T> {
  constructor(readonly result: T) {}
}

/**
 * Runs `work` in one transaction: committed when it resolves, rolled back when it throws, or when the
 * request it serves passed its deadline meanwhile (its caller was answered 503 and may retry: the work
 * must not also land). Outside a request with a deadline (a worker's job, a sweep, a migration) the
 * deadline check is no check at all. The one door to a transaction: nothing else calls
 * `sequelize.transaction` (tools/unit-of-work.spec.ts holds that).
 */
export async function unitOfWork<T>(
  db: UnitOfWorkDatabase,
  work: (transaction: UnitOfWork) => Promise<T>,
  options: UnitOfWorkOptions = {},
): Promise<T> {
  try {
    return await db.sequelize.transaction(async (transaction) => {
      if (options.lockTimeoutMs !== undefined) await setLockTimeout(db, options.lockTimeoutMs, transaction);
      const result = await work(transaction);
      if (options.dryRun) throw new DryRunResult(result);
      refusePastDeadline();
      return result;
    });
  } catch (error) {
    if (error instanceof DryRunResult) return error.result as T;
    throw error;
  }
}

/** The transaction's own lock_timeout (`set_config(…, true)` is `SET LOCAL` with a bind), at least 1 ms. */
async function setLockTimeout(db: UnitOfWorkDatabase, ms: number, transaction: Transaction): Promise<void> {
  await db.sequelize.query("SELECT set_config('lock_timeout', $1, true)", {
    bind: [`${Math.max(1, Math.trunc(ms))}ms`],
    type: QueryTypes.SELECT,
    transaction,
  });
}
