import { QueryTypes, type Transaction } from 'sequelize';
import type { Database, UnitOfWork } from '@wms/platform';

/** What one pass of ledger maintenance did: months made ahead, months dropped by retention. */
export interface LedgerMaintenance {
  created: string[];
  dropped: string[];
}

const PARTITION_PREFIX = 'stock_movements_p';
/** Months of partitions kept made ahead of the current one, so a stock write never waits for one. */
export const LEDGER_MONTHS_AHEAD = 3;
const LOCK_ID = 7_410_202;

/** The first instant (UTC) of the month holding `time`, moved by `months`. */
export function monthStart(time: Date, months = 0): Date {
  return new Date(Date.UTC(time.getUTCFullYear(), time.getUTCMonth() + months, 1));
}

/** A month's partition name: stock_movements_p202611. */
export function ledgerPartitionName(month: Date): string {
  return `${PARTITION_PREFIX}${month.toISOString().slice(0, 7).replace('-', '')}`;
}

function monthOfName(name: string): Date {
  const digits = name.slice(PARTITION_PREFIX.length);
  return new Date(Date.UTC(Number(digits.slice(0, 4)), Number(digits.slice(4, 6)) - 1, 1));
}

/**
 * The inventory ledger's monthly partitions: made ahead of time, and dropped once a whole month is older than
 * the retention. Before a month goes, the balance each of its stock rows had at its end is kept as a
 * checkpoint, so a balance stays its latest checkpoint plus the entries after it; checkpoints a newer one
 * replaces before the oldest month kept are deleted. One process at a time (a transaction-level advisory
 * lock); a process that finds it taken skips its turn.
 */
export class LedgerPartitionsRepository {
  constructor(private readonly db: Database) {}

  /**
   * Makes the partitions of `from` up to `through` (months) that are missing, in the caller's unit of work,
   * waiting for another process's maintenance to end; answers the names made.
   */
  async ensure(from: Date, through: Date, transaction: UnitOfWork): Promise<string[]> {
    await this.db.sequelize.query('SELECT pg_advisory_xact_lock($1)', { bind: [LOCK_ID], transaction });
    return this.addMissing(from, through, transaction);
  }

  /**
   * One pass of maintenance in the caller's unit of work (its DDL and checkpoints commit together): null when
   * another process holds the maintenance lock.
   */
  async maintain(transaction: UnitOfWork, retentionDays: number, now = new Date()): Promise<LedgerMaintenance | null> {
    const [lock] = await this.db.sequelize.query<{ locked: boolean }>(
      'SELECT pg_try_advisory_xact_lock($1) AS locked',
      {
        bind: [LOCK_ID],
        type: QueryTypes.SELECT,
        transaction,
      },
    );
    if (!lock?.locked) return null;
    const created = await this.addMissing(monthStart(now, -1), monthStart(now, LEDGER_MONTHS_AHEAD), transaction);
    const oldestKept = new Date(now.getTime() - retentionDays * 86_400_000);
    const dropped: string[] = [];
    for (const name of await this.names(transaction)) {
      const end = monthStart(monthOfName(name), 1);
      if (end.getTime() > oldestKept.getTime()) continue;
      await this.db.sequelize.query(
        `INSERT INTO stock_checkpoints (stock_row_id, at, tenant_id, qty_on_hand, qty_allocated)
         SELECT DISTINCT ON (stock_row_id) stock_row_id, $1::timestamptz, tenant_id, qty_on_hand_after, qty_allocated_after
           FROM ${name} ORDER BY stock_row_id, at DESC, id DESC
         ON CONFLICT (stock_row_id, at) DO NOTHING`,
        { bind: [end.toISOString()], transaction },
      );
      await this.db.sequelize.query(`DROP TABLE ${name}`, { transaction });
      dropped.push(name);
    }
    if (dropped.length) {
      // Only the latest checkpoint of a row before the oldest entry kept is ever read.
      await this.db.sequelize.query(
        `DELETE FROM stock_checkpoints c WHERE c.at < $1 AND EXISTS (
           SELECT 1 FROM stock_checkpoints n WHERE n.stock_row_id = c.stock_row_id AND n.at > c.at AND n.at <= $1)`,
        { bind: [monthStart(oldestKept).toISOString()], transaction },
      );
    }
    return { created, dropped };
  }

  private async names(transaction: Transaction): Promise<string[]> {
    const rows = await this.db.sequelize.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent = 'stock_movements'::regclass ORDER BY 1`,
      { type: QueryTypes.SELECT, transaction },
    );
    return rows.map((row) => row.name).filter((name) => /^stock_movements_p\d{6}$/.test(name));
  }

  private async addMissing(from: Date, through: Date, transaction: Transaction): Promise<string[]> {
    const have = new Set(await this.names(transaction));
    const made: string[] = [];
    for (let month = monthStart(from); month.getTime() <= through.getTime(); month = monthStart(month, 1)) {
      const name = ledgerPartitionName(month);
      if (have.has(name)) continue;
      await this.db.sequelize.query(
        `CREATE TABLE ${name} PARTITION OF stock_movements FOR VALUES FROM ('${month.toISOString()}') TO ('${monthStart(month, 1).toISOString()}')`,
        { transaction },
      );
      made.push(name);
    }
    return made;
  }
}
