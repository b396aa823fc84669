import type { Transaction } from 'sequelize';
import type { Database } from '@wms/platform';
import { Binds, cursorColumn, routedRead } from '@wms/platform';
import type { CursorPosition } from '@wms/platform';
import type { EventName } from '@wms/events';
import type { UpdateSubscriptionInput, WebhookDelivery, WebhookSubscription } from './webhook.types.js';

/** A destination as a change stores it: the displayed url, the settings in the clear and the sealed part. */
export interface StoredDestination {
  kind: string;
  url: string;
  settings: Record<string, unknown> | null;
  sealed: string | null;
}

const SUBSCRIPTION_COLUMNS = `
  id, tenant_id AS "tenantId", url,
  jsonb_build_object('kind', destination_kind, 'url', url) || COALESCE(destination, '{}'::jsonb) AS destination, events, description, filter,
  max_deliveries_per_second AS "maxDeliveriesPerSecond", ordered, api_version AS "apiVersion", active, disabled_reason AS "disabledReason",
  disabled_at AS "disabledAt", failing_since AS "failingSince", secret_rotated_at AS "secretRotatedAt",
  CASE WHEN previous_secret_expires_at > now() THEN previous_secret_expires_at END AS "previousSecretExpiresAt",
  created_at AS "createdAt", updated_at AS "updatedAt"`;

export { SUBSCRIPTION_COLUMNS, DELIVERY_COLUMNS };

const DELIVERY_COLUMNS = `
  d.id, d.event_id AS "eventId", e.event, d.status, d.attempts, d.last_status_code AS "lastStatusCode",
  d.last_error AS "lastError", d.next_attempt_at AS "nextAttemptAt", d.created_at AS "createdAt",
  d.updated_at AS "updatedAt"`;

/**
 * A trading partner's own subscription (destination kind `edi`) is kept by the EDI library through
 * `DocumentSubscriptions`: the subscriptions API neither lists, counts, reads, changes nor deletes one.
 */
const NOT_EDI = `destination_kind <> 'edi'`;

export class SubscriptionsRepository {
  constructor(private readonly db: Database) {}

  async insert(
    row: {
      tenantId: string | null;
      url: string;
      destinationKind: string;
      destinationSettings: Record<string, unknown> | null;
      destinationSecretSealed: string | null;
      events: string[];
      description: string;
      filter: Record<string, unknown> | null;
      maxDeliveriesPerSecond: number | null;
      ordered: boolean;
      apiVersion: string;
      secretSealed: string;
      createdBy: string | null;
    },
    transaction?: Transaction,
  ): Promise<WebhookSubscription> {
    const [rows] = (await this.db.sequelize.query(
      `INSERT INTO webhook_subscriptions (tenant_id, url, events, description, filter, max_deliveries_per_second,
                                          ordered, secret_sealed, created_by, api_version, destination_kind,
                                          destination, destination_secret_sealed)
       VALUES ($1, $2, $3::text[], $4, CAST($5 AS jsonb), $6, $7, $8, $9, $10, $11, CAST($12 AS jsonb), $13)
       RETURNING ${SUBSCRIPTION_COLUMNS}`,
      {
        bind: [
          row.tenantId,
          row.url,
          row.events,
          row.description,
          row.filter === null ? null : JSON.stringify(row.filter),
          row.maxDeliveriesPerSecond,
          row.ordered,
          row.secretSealed,
          row.createdBy,
          row.apiVersion,
          row.destinationKind,
          row.destinationSettings === null ? null : JSON.stringify(row.destinationSettings),
          row.destinationSecretSealed,
        ],
        transaction,
      },
    )) as [WebhookSubscription[], unknown];
    return rows[0]!;
  }

  /**
   * How many subscriptions an event of `tenantId` fans out to at most: the tenant's own and the cross-tenant
   * ones; for `tenantId` null (a cross-tenant subscription, which every tenant's events reach), the
   * cross-tenant ones and the most any one tenant has. Serialised with every other create by a transaction
   * advisory lock, so two creates at once cannot both pass the count.
   */
  async countReachingLocked(tenantId: string | null, transaction: Transaction): Promise<number> {
    await this.db.sequelize.query(`SELECT pg_advisory_xact_lock(hashtext('webhook_subscriptions.create'))`, {
      transaction,
    });
    const [rows] = (await this.db.sequelize.query(
      tenantId
        ? `SELECT count(*)::int AS n FROM webhook_subscriptions
            WHERE (tenant_id = $1 OR tenant_id IS NULL) AND ${NOT_EDI}`
        : `SELECT (SELECT count(*) FROM webhook_subscriptions WHERE tenant_id IS NULL AND ${NOT_EDI})::int
                + COALESCE((SELECT max(n) FROM (SELECT count(*) AS n FROM webhook_subscriptions
                                                 WHERE tenant_id IS NOT NULL AND ${NOT_EDI} GROUP BY tenant_id) AS per_tenant), 0)::int AS n`,
      { bind: tenantId ? [tenantId] : [], transaction },
    )) as [Array<{ n: number }>, unknown];
    return rows[0]!.n;
  }

  /**
   * `tenantId` undefined = every subscription; null = cross-tenant subscriptions only. Oldest first, `limit`
   * a page after `cursor` (the previous page's last subscription); no limit reads them all.
   */
  async list(filter: {
    tenantId?: string | null;
    limit?: number;
    cursor?: CursorPosition;
  }): Promise<Array<WebhookSubscription & { cursor: CursorPosition }>> {
    const [rows] = (await routedRead(this.db, (from) =>
      from.sequelize.query(
        // $1 true: every tenant's and the platform's; else the subscriptions of tenant $2 (null: the platform's).
        // `IS NOT DISTINCT FROM` reads no index: equality and IS NULL apart do, folded by the planner.
        `SELECT ${SUBSCRIPTION_COLUMNS},
              ${cursorColumn('created_at', 'id')}
         FROM webhook_subscriptions
        WHERE ($1::boolean OR tenant_id = $2::uuid OR ($2::uuid IS NULL AND tenant_id IS NULL))
          AND ($3::timestamptz IS NULL OR (created_at, id) > ($3::timestamptz, $4::uuid))
          AND ${NOT_EDI}
        ORDER BY created_at, id
        LIMIT $5`,
        {
          bind: [
            filter.tenantId === undefined,
            filter.tenantId ?? null,
            filter.cursor?.updatedAt ?? null,
            filter.cursor?.id ?? null,
            filter.limit ?? null,
          ],
        },
      ),
    )) as [Array<WebhookSubscription & { cursor: CursorPosition }>, unknown];
    return rows;
  }

  /** `lock`: hold the row until the transaction ends (a change compares it with what it writes). */
  async findById(
    id: string,
    transaction?: Transaction,
    options: { lock?: boolean } = {},
  ): Promise<WebhookSubscription | null> {
    const [rows] = (await this.db.sequelize.query(
      `SELECT ${SUBSCRIPTION_COLUMNS} FROM webhook_subscriptions
        WHERE id = $1 AND ${NOT_EDI}${options.lock ? ' FOR UPDATE' : ''}`,
      { bind: [id], transaction },
    )) as [WebhookSubscription[], unknown];
    return rows[0] ?? null;
  }

  async update(
    id: string,
    patch: Omit<UpdateSubscriptionInput, 'destination'> & { destination?: StoredDestination },
    transaction?: Transaction,
  ): Promise<WebhookSubscription | null> {
    const binds = new Binds();
    const where = `id = ${binds.add(id)} AND ${NOT_EDI}`;
    const sets: string[] = ['updated_at = now()'];
    if (patch.url !== undefined) sets.push(`url = ${binds.add(patch.url)}`);
    if (patch.destination !== undefined) {
      const { kind, url, settings, sealed } = patch.destination;
      sets.push(
        `url = ${binds.add(url)}`,
        `destination_kind = ${binds.add(kind)}`,
        `destination = CAST(${binds.add(settings === null ? null : JSON.stringify(settings))} AS jsonb)`,
        `destination_secret_sealed = ${binds.add(sealed)}`,
      );
    }
    if (patch.events !== undefined) sets.push(`events = ${binds.add(patch.events)}::text[]`);
    if (patch.description !== undefined) sets.push(`description = ${binds.add(patch.description)}`);
    if (patch.filter !== undefined) {
      sets.push(`filter = CAST(${binds.add(patch.filter ? JSON.stringify(patch.filter) : null)} AS jsonb)`);
    }
    if (patch.maxDeliveriesPerSecond !== undefined) {
      sets.push(`max_deliveries_per_second = ${binds.add(patch.maxDeliveriesPerSecond)}`);
    }
    if (patch.ordered !== undefined) sets.push(`ordered = ${binds.add(patch.ordered)}`);
    if (patch.apiVersion !== undefined) sets.push(`api_version = ${binds.add(patch.apiVersion)}`);
    if (patch.active !== undefined) {
      sets.push(
        `active = ${binds.add(patch.active)}`,
        'disabled_reason = NULL',
        'disabled_at = NULL',
        'failing_since = NULL',
      );
    }
    const [rows] = (await this.db.sequelize.query(
      `UPDATE webhook_subscriptions SET ${sets.join(', ')} WHERE ${where} RETURNING ${SUBSCRIPTION_COLUMNS}`,
      { bind: binds.values, transaction },
    )) as [WebhookSubscription[], unknown];
    return rows[0] ?? null;
  }

  async delete(id: string, transaction?: Transaction): Promise<boolean> {
    const [rows] = (await this.db.sequelize.query(
      `DELETE FROM webhook_subscriptions WHERE id = $1 AND ${NOT_EDI} RETURNING id`,
      {
        bind: [id],
        transaction,
      },
    )) as [unknown[], unknown];
    return rows.length > 0;
  }

  async findDelivery(
    subscriptionId: string,
    deliveryId: string,
    transaction?: Transaction,
  ): Promise<WebhookDelivery | null> {
    const [rows] = (await this.db.sequelize.query(
      `SELECT ${DELIVERY_COLUMNS}
         FROM webhook_deliveries d JOIN events e ON e.id = d.event_id
        WHERE d.subscription_id = $1 AND d.id = $2`,
      { bind: [subscriptionId, deliveryId], transaction },
    )) as [WebhookDelivery[], unknown];
    return rows[0] ?? null;
  }

  /** Starts a new run of a finished delivery: back to pending, a new generation (so a new job id), not yet enqueued. */
  async restartDelivery(subscriptionId: string, deliveryId: string, transaction: Transaction): Promise<boolean> {
    const [rows] = (await this.db.sequelize.query(
      `UPDATE webhook_deliveries
          SET status = 'pending', generation = generation + 1, enqueued_at = NULL, next_attempt_at = now(), priority = 0,
              updated_at = now()
        WHERE id = $1 AND subscription_id = $2 AND status <> 'pending'
        RETURNING id`,
      { bind: [deliveryId, subscriptionId], transaction },
    )) as [unknown[], unknown];
    return rows.length > 0;
  }

  async insertDelivery(eventId: string, subscriptionId: string, transaction: Transaction): Promise<string> {
    const [rows] = (await this.db.sequelize.query(
      `INSERT INTO webhook_deliveries (event_id, event, subscription_id, next_attempt_at)
       SELECT e.id, e.event, $2::uuid, now() FROM events e WHERE e.id = $1
       RETURNING id`,
      { bind: [eventId, subscriptionId], transaction },
    )) as [Array<{ id: string }>, unknown];
    return rows[0]!.id;
  }

  /** The latest events a filter test reads: of one tenant (or every tenant), optionally of some types, newest first. */
  async latestEvents(query: {
    tenantId: string | null;
    events: string[] | null;
    limit: number;
  }): Promise<Array<{ id: string; event: EventName; occurredAt: Date; data: Record<string, unknown> }>> {
    const [rows] = (await this.db.sequelize.query(
      `SELECT id, event, occurred_at AS "occurredAt", data
         FROM events
        WHERE (event = ANY ($1::text[]) OR ($1::text[] IS NULL AND event NOT IN ('webhook.test', 'webhook.disabled')))
          AND ($2::uuid IS NULL OR (tenant_id = $2 AND feed_position IS NOT NULL))
        ORDER BY ${query.tenantId ? 'feed_position DESC' : 'seq DESC'}
        LIMIT $3`,
      { bind: [query.events, query.tenantId, query.limit] },
    )) as [Array<{ id: string; event: EventName; occurredAt: Date; data: Record<string, unknown> }>, unknown];
    return rows;
  }
}
