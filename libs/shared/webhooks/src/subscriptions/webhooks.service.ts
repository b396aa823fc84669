import { changedFields, type AuditService } from '@wms/identity';
import type { Transaction } from 'sequelize';
import type { Config } from '@wms/platform';
import type { Database } from '@wms/platform';
import { AppError, type ApiVersion, unitOfWork } from '@wms/platform';
import { EventsService } from '@wms/events';
import { isUuid, validate } from '@wms/platform';
import { SecretBox } from './secret-box.js';
import { generateWebhookSecret } from './signing.js';
import { SubscriptionsRepository } from './subscriptions.repository.js';
import { assertHttpUrlOnly } from '../destinations/index.js';
import { checkedDestination } from './destination-check.js';
import { AUDITED_FIELDS, snapshot } from './subscription-audit.js';
import { assertDeliverableUrl, type UrlPolicy } from './url-guard.js';
import { LIST_LIMIT_MAX, toPage, type CursorPosition, type ListPage } from '@wms/platform';
import { compileFilter, type EventFilter } from './event-filter.js';
import { DeliveryLogRepository, type DeliveryLogQuery } from './delivery-log.repository.js';
import {
  ATTEMPTS_SHOWN,
  createSubscriptionSchema,
  filterTestSchema,
  listDeliveriesSchema,
  updateSubscriptionSchema,
} from './webhook.schema.js';
import type {
  CreateSubscriptionInput,
  CreatedWebhookSubscription,
  DeliveryAttempt,
  FilterTestResult,
  UpdateSubscriptionInput,
  ViewerScope,
  WebhookDelivery,
  WebhookSubscription,
} from './webhook.types.js';

export const SUBSCRIPTION_ENTITY = 'webhook_subscription';

/** Subscription administration, each change audited in its transaction. Delivery itself is WebhookDeliveryService's. */
export class WebhooksService {
  readonly repository: SubscriptionsRepository;
  private readonly deliveryLog: DeliveryLogRepository;
  readonly secrets: SecretBox;
  private readonly urlPolicy: UrlPolicy;
  private readonly maxPerTenant: number;
  /** The version a subscription created without `apiVersion` gets (API_DEFAULT_VERSION). */
  private readonly defaultApiVersion: ApiVersion;

  constructor(
    private readonly db: Database,
    config: Pick<Config, 'nodeEnv' | 'jwt' | 'secretsEncryptionKeys' | 'webhook' | 'apiVersions'>,
    private readonly audit: AuditService,
    private readonly events = new EventsService(db),
  ) {
    this.repository = new SubscriptionsRepository(db);
    this.deliveryLog = new DeliveryLogRepository(db);
    this.secrets = SecretBox.fromConfig(config);
    this.urlPolicy = { allowPrivate: config.webhook.allowPrivateUrls, requireHttps: config.nodeEnv === 'production' };
    this.maxPerTenant = config.webhook.maxSubscriptionsPerTenant;
    this.defaultApiVersion = config.apiVersions.defaultVersion;
  }

  /**
   * `tenantId` is the tenant the subscription is bound to (null = every tenant's events), already scoped by the
   * caller.
   */
  async create(
    body: unknown,
    tenantId: string | null,
    actorUserId: string | null,
  ): Promise<CreatedWebhookSubscription> {
    const input = validate(createSubscriptionSchema, body) as CreateSubscriptionInput;
    const destination = await checkedDestination(
      input.destination ?? { kind: 'http', url: input.url! },
      this.urlPolicy,
      this.secrets,
    );
    const secret = generateWebhookSecret();
    const record = await unitOfWork(this.db, async (transaction) => {
      await this.assertBelowLimit(tenantId, transaction);
      const created = await this.repository.insert(
        {
          tenantId,
          url: destination.url,
          destinationKind: destination.kind,
          destinationSettings: destination.settings,
          destinationSecretSealed: destination.sealed,
          events: input.events,
          description: input.description ?? '',
          filter: input.filter ?? null,
          maxDeliveriesPerSecond: input.maxDeliveriesPerSecond ?? null,
          ordered: input.ordered ?? false,
          apiVersion: input.apiVersion ?? this.defaultApiVersion,
          secretSealed: this.secrets.seal(secret),
          createdBy: actorUserId,
        },
        transaction,
      );
      await this.record('webhook.created', created, actorUserId, snapshot(created), transaction);
      return created;
    });
    return { ...record, secret };
  }

  /**
   * A tenant-bound viewer lists its tenant's subscriptions; a cross-tenant viewer all, or one tenant's. Oldest
   * first, a page at a time (`limit`, `cursor`).
   */
  async page(
    viewer: ViewerScope,
    tenantFilter: string | null,
    { limit, cursor }: { limit: number; cursor?: CursorPosition },
  ): Promise<ListPage<WebhookSubscription>> {
    const rows = await this.repository.list({
      tenantId: viewer.tenantId ?? tenantFilter ?? undefined,
      limit: limit + 1,
      cursor,
    });
    return toPage(rows, limit);
  }

  /** The first page of subscriptions (see page). */
  async list(viewer: ViewerScope, tenantFilter?: string | null): Promise<WebhookSubscription[]> {
    return (await this.page(viewer, tenantFilter ?? null, { limit: LIST_LIMIT_MAX })).data;
  }

  async get(id: string, viewer: ViewerScope): Promise<WebhookSubscription> {
    const subscription = isUuid(id) ? await this.repository.findById(id) : null;
    // Another tenant's subscription behaves as if it did not exist.
    if (!subscription || (viewer.tenantId && subscription.tenantId !== viewer.tenantId)) {
      throw AppError.notFound(`Webhook subscription ${id} not found`);
    }
    return subscription;
  }

  /** Applies the patch under a row lock and audits what actually changed; a patch that changes nothing audits nothing. */
  async update(
    id: string,
    body: unknown,
    viewer: ViewerScope,
    actorUserId: string | null = null,
  ): Promise<WebhookSubscription> {
    const { destination: newDestination, ...patch } = validate(
      updateSubscriptionSchema,
      body,
    ) as UpdateSubscriptionInput;
    const current = await this.get(id, viewer);
    if (patch.url !== undefined) {
      assertHttpUrlOnly(current.destination.kind);
      patch.url = await assertDeliverableUrl(patch.url, this.urlPolicy);
    }
    const destination = newDestination && (await checkedDestination(newDestination, this.urlPolicy, this.secrets));
    return unitOfWork(this.db, async (transaction) => {
      const before = await this.repository.findById(id, transaction, { lock: true });
      if (!before) throw AppError.notFound(`Webhook subscription ${id} not found`);
      if (patch.url !== undefined) assertHttpUrlOnly(before.destination.kind);
      const updated = (await this.repository.update(
        id,
        { ...patch, ...(destination && { destination }) },
        transaction,
      ))!;
      const diff = changedFields(before, updated, AUDITED_FIELDS);
      if (Object.keys(diff).length > 0) await this.record('webhook.updated', updated, actorUserId, diff, transaction);
      return updated;
    });
  }

  async remove(id: string, viewer: ViewerScope, actorUserId: string | null = null): Promise<void> {
    const subscription = await this.get(id, viewer);
    await unitOfWork(this.db, async (transaction) => {
      if (await this.repository.delete(id, transaction))
        await this.record('webhook.deleted', subscription, actorUserId, snapshot(subscription), transaction);
    });
  }

  /** The first page of the delivery log (see deliveryPage). */
  async listDeliveries(id: string, viewer: ViewerScope, query: unknown = {}): Promise<WebhookDelivery[]> {
    return (await this.deliveryPage(id, viewer, query)).data;
  }

  /** The delivery log, newest first, filtered by status or event; `nextCursor` continues it. */
  async deliveryPage(id: string, viewer: ViewerScope, query: unknown = {}): Promise<ListPage<WebhookDelivery>> {
    const filter = validate(listDeliveriesSchema, query, 'Invalid query') as DeliveryLogQuery;
    await this.get(id, viewer);
    return this.deliveryLog.page(id, filter);
  }

  /** Every attempt of one delivery (over all its runs), newest first: status code, latency, error, answer. */
  async deliveryAttempts(id: string, deliveryId: string, viewer: ViewerScope): Promise<DeliveryAttempt[]> {
    await this.get(id, viewer);
    const delivery = isUuid(deliveryId) ? await this.repository.findDelivery(id, deliveryId) : null;
    if (!delivery) throw AppError.notFound(`Delivery ${deliveryId} not found`);
    return this.deliveryLog.attempts(id, deliveryId, ATTEMPTS_SHOWN);
  }

  /**
   * Starts a new run of a finished (succeeded or failed) delivery: same event id, so the same
   * `webhook-id`. The caller enqueues it; if that fails the relay does it within a poll interval.
   */
  async redeliver(id: string, deliveryId: string, viewer: ViewerScope): Promise<WebhookDelivery> {
    const subscription = await this.get(id, viewer);
    this.assertActive(subscription);
    return unitOfWork(this.db, async (transaction) => {
      const delivery = isUuid(deliveryId) ? await this.repository.findDelivery(id, deliveryId, transaction) : null;
      if (!delivery) throw AppError.notFound(`Delivery ${deliveryId} not found`);
      if (!(await this.repository.restartDelivery(id, deliveryId, transaction))) {
        throw AppError.conflict(
          'INVALID_STATE',
          'Delivery is pending; it can be redelivered once it has succeeded or failed',
        );
      }
      return (await this.repository.findDelivery(id, deliveryId, transaction))!;
    });
  }

  /** Writes a `webhook.test` event and its delivery to this subscription only, whatever its event filter. */
  async sendTest(id: string, viewer: ViewerScope): Promise<WebhookDelivery> {
    const subscription = await this.get(id, viewer);
    this.assertActive(subscription);
    return unitOfWork(this.db, async (transaction) => {
      const event = await this.events.appendTest(transaction, { tenantId: subscription.tenantId, subscriptionId: id });
      const deliveryId = await this.repository.insertDelivery(event.id, id, transaction);
      return (await this.repository.findDelivery(id, deliveryId, transaction))!;
    });
  }

  /**
   * Tries a filter on the latest events (of `tenantId`, already scoped by the caller; null = every tenant's),
   * as the fan-out would: how many of them the filter lets through, and which. `readable` bounds the event types
   * tried when the body names none (or `*`): those the caller may read (null = every one).
   */
  async filterTest(
    body: unknown,
    tenantId: string | null,
    readable: string[] | null = null,
  ): Promise<FilterTestResult> {
    const input = validate<{ filter: EventFilter; events?: string[]; limit: number }>(filterTestSchema, body);
    const test = compileFilter(input.filter);
    const events =
      input.events && !input.events.includes('*')
        ? input.events
        : (readable?.filter((name) => name !== 'webhook.disabled') ?? null);
    const rows = await this.repository.latestEvents({ tenantId, events, limit: input.limit });
    const tested = rows.map((row) => ({
      id: row.id,
      event: row.event,
      timestamp: row.occurredAt.toISOString(),
      matched: test(row.data),
    }));
    return { tested: tested.length, matched: tested.filter((row) => row.matched).length, events: tested };
  }

  /** One audit entry about a subscription, in the transaction of the change it describes. */
  record(
    action: string,
    subscription: Pick<WebhookSubscription, 'id' | 'tenantId'>,
    actorUserId: string | null,
    changes: Record<string, unknown>,
    transaction: Transaction,
  ): Promise<void> {
    return this.audit.record(
      {
        action,
        entityType: SUBSCRIPTION_ENTITY,
        entityId: subscription.id,
        tenantId: subscription.tenantId,
        actorUserId,
        changes,
      },
      transaction,
    );
  }

  /**
   * 409 SUBSCRIPTION_LIMIT when an event of the tenant would fan out to WEBHOOK_MAX_SUBSCRIPTIONS_PER_TENANT
   * subscriptions already (see SubscriptionsRepository.countReachingLocked).
   */
  private async assertBelowLimit(tenantId: string | null, transaction: Transaction): Promise<void> {
    const limit = this.maxPerTenant;
    if ((await this.repository.countReachingLocked(tenantId, transaction)) < limit) return;
    throw AppError.conflict(
      'SUBSCRIPTION_LIMIT',
      tenantId
        ? `The tenant has ${limit} webhook subscriptions, counting cross-tenant ones (WEBHOOK_MAX_SUBSCRIPTIONS_PER_TENANT); delete one first`
        : `A tenant would have more than ${limit} webhook subscriptions, counting cross-tenant ones (WEBHOOK_MAX_SUBSCRIPTIONS_PER_TENANT); delete one first`,
    );
  }

  private assertActive(subscription: WebhookSubscription): void {
    if (!subscription.active) {
      throw AppError.conflict(
        'SUBSCRIPTION_DISABLED',
        'Webhook subscription is disabled; enable it first (POST /api/v1/webhooks/{id}/enable)',
      );
    }
  }
}
