import type { Database } from '@wms/platform';

export interface SealedRow {
  id: string;
  secretSealed: string;
  previousSecretSealed: string | null;
  /** A broker destination's URL and credentials (null for an HTTP subscription). */
  destinationSecretSealed: string | null;
}

/** The sealed values of the webhook subscriptions (signing secrets, broker destinations), as key rotation reads and rewrites them. */
export class SealedSecretsRepository {
  constructor(private readonly db: Database) {}

  async list(): Promise<SealedRow[]> {
    const [rows] = (await this.db.sequelize.query(
      `SELECT id, secret_sealed AS "secretSealed", previous_secret_sealed AS "previousSecretSealed",
              destination_secret_sealed AS "destinationSecretSealed"
         FROM webhook_subscriptions ORDER BY id`,
    )) as [SealedRow[], unknown];
    return rows;
  }

  /** Writes the row's values sealed again, only if they are still those read: false when they changed meanwhile. */
  async replace(
    row: SealedRow,
    sealed: { secret: string; previous: string | null; destination: string | null },
  ): Promise<boolean> {
    const [, result] = (await this.db.sequelize.query(
      `UPDATE webhook_subscriptions SET secret_sealed = $2, previous_secret_sealed = $3, destination_secret_sealed = $6
        WHERE id = $1 AND secret_sealed = $4 AND previous_secret_sealed IS NOT DISTINCT FROM $5
          AND destination_secret_sealed IS NOT DISTINCT FROM $7`,
      {
        bind: [
          row.id,
          sealed.secret,
          sealed.previous,
          row.secretSealed,
          row.previousSecretSealed,
          sealed.destination,
          row.destinationSecretSealed,
        ],
      },
    )) as [unknown, { rowCount?: number }];
    return !!result?.rowCount;
  }
}
