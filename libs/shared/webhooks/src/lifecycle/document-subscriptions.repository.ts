import type { Transaction } from 'sequelize';
import type { Database } from '@wms/platform';

/** A document destination's subscription as its keeper sees it. */
export interface DocumentSubscriptionRow {
  id: string;
  tenantId: string | null;
  events: string[];
  active: boolean;
}

/** What a document destination's subscription is made or changed to. */
export interface DocumentSubscriptionValues {
  tenantId: string;
  url: string;
  kind: 'edi';
  settings: Record<string, unknown>;
  events: string[];
  description: string;
  apiVersion: string;
  active: boolean;
}

const COLUMNS = `id, tenant_id AS "tenantId", events, active`;

/**
 * The subscriptions of document destinations (`destination_kind = 'edi'`): always ordered (one document's
 * events in sequence), never touched by the subscriptions API (SubscriptionsRepository leaves them out).
 */
export class DocumentSubscriptionsRepository {
  constructor(private readonly db: Database) {}

  async find(id: string, transaction: Transaction): Promise<DocumentSubscriptionRow | null> {
    const [rows] = (await this.db.sequelize.query(
      `SELECT ${COLUMNS} FROM webhook_subscriptions WHERE id = $1 AND destination_kind = 'edi' FOR UPDATE`,
      { bind: [id], transaction },
    )) as [DocumentSubscriptionRow[], unknown];
    return rows[0] ?? null;
  }

  async insert(
    values: DocumentSubscriptionValues & { secretSealed: string },
    transaction: Transaction,
  ): Promise<DocumentSubscriptionRow> {
    const [rows] = (await this.db.sequelize.query(
      `INSERT INTO webhook_subscriptions (tenant_id, url, events, description, ordered, secret_sealed, api_version,
                                          destination_kind, destination, active)
       VALUES ($1, $2, $3::text[], $4, true, $5, $6, $7, CAST($8 AS jsonb), $9)
       RETURNING ${COLUMNS}`,
      {
        bind: [
          values.tenantId,
          values.url,
          values.events,
          values.description,
          values.secretSealed,
          values.apiVersion,
          values.kind,
          JSON.stringify(values.settings),
          values.active,
        ],
        transaction,
      },
    )) as [DocumentSubscriptionRow[], unknown];
    return rows[0]!;
  }

  /** Changes what it follows and whether it is active; a change of `active` clears a disabled state. */
  async update(
    id: string,
    values: DocumentSubscriptionValues,
    transaction: Transaction,
  ): Promise<DocumentSubscriptionRow | null> {
    const [rows] = (await this.db.sequelize.query(
      `UPDATE webhook_subscriptions
          SET url = $2, events = $3::text[], description = $4, api_version = $5, destination = CAST($6 AS jsonb),
              active = $7, ordered = true,
              disabled_reason = CASE WHEN $7 THEN NULL ELSE disabled_reason END,
              disabled_at = CASE WHEN $7 THEN NULL ELSE disabled_at END,
              failing_since = CASE WHEN $7 AND NOT active THEN NULL ELSE failing_since END,
              updated_at = now()
        WHERE id = $1 AND destination_kind = 'edi'
        RETURNING ${COLUMNS}`,
      {
        bind: [
          id,
          values.url,
          values.events,
          values.description,
          values.apiVersion,
          JSON.stringify(values.settings),
          values.active,
        ],
        transaction,
      },
    )) as [DocumentSubscriptionRow[], unknown];
    return rows[0] ?? null;
  }

  async delete(id: string, transaction: Transaction): Promise<boolean> {
    const [rows] = (await this.db.sequelize.query(
      `DELETE FROM webhook_subscriptions WHERE id = $1 AND destination_kind = 'edi' RETURNING id`,
      { bind: [id], transaction },
    )) as [unknown[], unknown];
    return rows.length > 0;
  }
}
