import type { Transaction } from 'sequelize';
import { refusePastDeadline } from '../context/index.js';
import type { Database } from './models.js';

/**
 * The transaction the writes of one unit of work share. Services and repositories take it as a
 * parameter; only `unitOfWork` opens one, so an app never needs Sequelize itself.
 */
export type UnitOfWork = Transaction;

/**
 * Runs `work` in one transaction: committed when it resolves, rolled back when it throws, or when the
 * request it serves passed its deadline meanwhile (its caller was answered 503 and may retry: the work
 * must not also land).
 */
export function unitOfWork<T>(db: Database, work: (transaction: UnitOfWork) => Promise<T>): Promise<T> {
  return db.sequelize.transaction(async (transaction) => {
    const result = await work(transaction);
    refusePastDeadline();
    return result;
  });
}
