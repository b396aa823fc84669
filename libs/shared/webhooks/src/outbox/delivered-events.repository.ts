import type { Database } from '@wms/platform';

/**
 * Retention of the outbox: events whose deliveries are over. The outbox is the one place where webhooks
 * reads the events table itself (see libs/shared/README.md, ownership).
 */
export class DeliveredEventsRepository {
  constructor(private readonly db: Database) {}

  /**
   * Deletes at most `limit` events (their deliveries and attempts go with them) that were relayed and have
   * no delivery still pending: those whose deliveries all succeeded (or that had none) once older than
   * `succeededDays`, those with a failed delivery once that failure is older than `failedDays`. A batch is
   * picked through an index and locked with SKIP LOCKED, so a purge never waits for a writer.
   */
  async purge(succeededDays: number, failedDays: number, limit: number): Promise<number> {
    const [rows] = (await this.db.sequelize.query(
      `DELETE FROM events WHERE id IN (
         SELECT e.id FROM events e
          WHERE e.occurred_at < now() - make_interval(days => least($1::int, $2::int))
            AND e.relayed_at IS NOT NULL
            AND NOT EXISTS (
              SELECT 1 FROM webhook_deliveries d
               WHERE d.event_id = e.id
                 AND (d.status = 'pending'
                      OR (d.status = 'failed' AND d.updated_at >= now() - make_interval(days => $2::int))))
            AND (e.occurred_at < now() - make_interval(days => $1::int)
                 OR EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.status = 'failed'))
          ORDER BY e.occurred_at
          LIMIT $3
          FOR UPDATE SKIP LOCKED)
       RETURNING id`,
      { bind: [succeededDays, failedDays, limit] },
    )) as [unknown[], unknown];
    return rows.length;
  }
}
