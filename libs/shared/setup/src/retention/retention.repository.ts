import type { Database } from '@wms/platform';

/**
 * Deletes of the tables that grow with traffic and have no partitions, each a small batch picked through an
 * index and locked with SKIP LOCKED, so a purge never waits for a writer nor makes one wait for long.
 */
export class RetentionRepository {
  constructor(private readonly db: Database) {}

  /**
   * Deletes at most `limit` events (their deliveries and attempts go with them) that were relayed and have
   * no delivery still pending: those whose deliveries all succeeded (or that had none) once older than
   * `succeededDays`, those with a failed delivery once that failure is older than `failedDays`.
   */
  async purgeEvents(succeededDays: number, failedDays: number, limit: number): Promise<number> {
    const [rows] = (await this.db.sequelize.query(
      `DELETE FROM events WHERE id IN (
         SELECT e.id FROM events e
          WHERE e.occurred_at < now() - make_interval(days => least(:succeededDays, :failedDays))
            AND e.relayed_at IS NOT NULL
            AND NOT EXISTS (
              SELECT 1 FROM webhook_deliveries d
               WHERE d.event_id = e.id
                 AND (d.status = 'pending'
                      OR (d.status = 'failed' AND d.updated_at >= now() - make_interval(days => :failedDays))))
            AND (e.occurred_at < now() - make_interval(days => :succeededDays)
                 OR EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.status = 'failed'))
          ORDER BY e.occurred_at
          LIMIT :limit
          FOR UPDATE SKIP LOCKED)
       RETURNING id`,
      { replacements: { succeededDays, failedDays, limit } },
    )) as [unknown[], unknown];
    return rows.length;
  }

  /** Deletes at most `limit` audit entries older than `days`, oldest first. */
  async purgeAudit(days: number, limit: number): Promise<number> {
    const [rows] = (await this.db.sequelize.query(
      `DELETE FROM audit_logs WHERE id IN (
         SELECT id FROM audit_logs WHERE created_at < now() - make_interval(days => :days)
          ORDER BY created_at LIMIT :limit FOR UPDATE SKIP LOCKED)
       RETURNING id`,
      { replacements: { days, limit } },
    )) as [unknown[], unknown];
    return rows.length;
  }
}
