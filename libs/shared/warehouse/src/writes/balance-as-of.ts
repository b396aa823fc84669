/**
 * SQL of a LATERAL subquery answering `qty_on_hand` and `qty_allocated` of the stock row `row` (an alias) at
 * the time `at` (an SQL expression): its latest ledger entry's balance after, or its latest checkpoint's
 * when that is later (a month dropped by retention, the balances from before the ledger). Two index probes
 * per stock row, whatever the ledger's length; no row when the stock row had no balance yet at that time.
 */
export function balanceAsOfSql(row: string, at: string): string {
  return `(SELECT x.qty_on_hand, x.qty_allocated FROM (
            (SELECT m.at, m.qty_on_hand_after AS qty_on_hand, m.qty_allocated_after AS qty_allocated
               FROM stock_movements m WHERE m.stock_row_id = ${row}.id AND m.at <= ${at}
              ORDER BY m.at DESC, m.id DESC LIMIT 1)
            UNION ALL
            (SELECT c.at, c.qty_on_hand, c.qty_allocated
               FROM stock_checkpoints c WHERE c.stock_row_id = ${row}.id AND c.at <= ${at}
              ORDER BY c.at DESC LIMIT 1)) x
          ORDER BY x.at DESC LIMIT 1)`;
}
