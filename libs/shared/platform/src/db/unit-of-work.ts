import type { Transaction } from 'sequelize';
import type { Database } from './models.js';

/**
 * The transaction the writes of one unit of work share. Services and repositories take it as a
 * parameter; only `unitOfWork` opens one, so an app never needs Sequelize itself.
 */
export type UnitOfWork = Transaction;

/** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
export function unitOfWork<T>(db: Database, work: (transaction: UnitOfWork) => Promise<T>): Promise<T> {
  return db.sequelize.transaction(work);
}
