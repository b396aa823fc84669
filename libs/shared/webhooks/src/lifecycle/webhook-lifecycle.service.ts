import type { Transaction } from 'sequelize';
import type { Database } from '@wms/platform';
import { AppError, unitOfWork } from '@wms/platform';
import type { EventsService } from '@wms/events';
import { validate } from '@wms/platform';
import { LifecycleRepository, type DisabledSubscription } from './lifecycle.repository.js';
import {
  generateWebhookSecret,
  RECOVER_WINDOW_DAYS,
  recoverSchema,
  replaySchema,
  rotateSecretSchema,
  type CreatedWebhookSubscription,
  type RecoverResult,
  type ReplayResult,
  type ViewerScope,
  type WebhookSubscription,
  type WebhooksService,
} from '../subscriptions/index.js';

const DAY_MS = 24 * 3_600_000;

/**
 * A subscription's life after creation: its secret rotates with a grace period, failed deliveries are
 * recovered and single events replayed, and one that fails for too long is disabled and enabled again.
 * Each action is audited in the transaction that makes it. Queueing is the caller's: it enqueues the
 * returned deliveries, and the relay does it within a poll interval if that fails.
 */
export class WebhookLifecycleService {
  readonly repository: LifecycleRepository;

  constructor(
    private readonly db: Database,
    private readonly webhooks: WebhooksService,
    private readonly events: EventsService,
  ) {
    this.repository = new LifecycleRepository(db);
  }

  /** A new secret, returned this once; the previous one keeps signing beside it for `graceSeconds`. */
  async rotateSecret(
    id: string,
    body: unknown,
    viewer: ViewerScope,
    actorUserId: string | null,
  ): Promise<CreatedWebhookSubscription> {
    const { graceSeconds } = validate(rotateSecretSchema, body ?? {});
    await this.webhooks.get(id, viewer);
    const secret = generateWebhookSecret();
    const record = await unitOfWork(this.db, async (transaction) => {
      const rotated = await this.repository.rotateSecret(
        id,
        this.webhooks.secrets.seal(secret),
        graceSeconds,
        transaction,
      );
      if (!rotated) throw AppError.notFound(`Webhook subscription ${id} not found`);
      await this.record('webhook.secret_rotated', rotated, actorUserId, transaction, {
        graceSeconds,
        previousSecretExpiresAt: rotated.previousSecretExpiresAt,
      });
      return rotated;
    });
    return { ...record, secret };
  }

  /**
   * Queues again the subscription's failed deliveries created in [since, until): at most `limit` per call
   * (oldest first), at recovery priority. Repeating the call queues the rest; a delivery already queued
   * again is pending, so no call queues it twice.
   */
  async recover(
    id: string,
    body: unknown,
    viewer: ViewerScope,
    actorUserId: string | null,
  ): Promise<RecoverResult & { deliveryIds: string[] }> {
    const input = validate(recoverSchema, body ?? {});
    const now = Date.now();
    // A clock a little ahead of ours should not make the call fail: until is at most now.
    const until = new Date(Math.min(input.until?.getTime() ?? now, now));
    const since = input.since as Date;
    const window = [{ path: 'since', message: `since must be within the last ${RECOVER_WINDOW_DAYS} days` }];
    if (since.getTime() < now - RECOVER_WINDOW_DAYS * DAY_MS)
      throw AppError.validation('Invalid recover window', window);
    if (since >= until)
      throw AppError.validation('Invalid recover window', [{ path: 'until', message: 'until must be after since' }]);
    const subscription = await this.webhooks.get(id, viewer);
    assertActive(subscription);
    return unitOfWork(this.db, async (transaction) => {
      const deliveryIds = await this.repository.recover(id, since, until, input.limit, transaction);
      const remaining = await this.repository.countFailed(id, since, until, transaction);
      const result: RecoverResult = {
        since: since.toISOString(),
        until: until.toISOString(),
        recovered: deliveryIds.length,
        remaining,
        limit: input.limit,
      };
      if (deliveryIds.length > 0)
        await this.record('webhook.recovered', subscription, actorUserId, transaction, result);
      return { ...result, deliveryIds };
    });
  }

  /**
   * Sends a past event (also one delivered successfully) to the subscription once more, same
   * `webhook-id`. The event must be of the subscription's tenant and one it subscribes to (or have been
   * sent to it before). While a run of that delivery is pending, a repeat changes nothing.
   */
  async replay(id: string, body: unknown, viewer: ViewerScope, actorUserId: string | null): Promise<ReplayResult> {
    const { eventId } = validate(replaySchema, body ?? {});
    const subscription = await this.webhooks.get(id, viewer);
    assertActive(subscription);
    return unitOfWork(this.db, async (transaction) => {
      const event = await this.repository.findEvent(eventId, transaction);
      if (!event || (subscription.tenantId && event.tenantId !== subscription.tenantId))
        throw AppError.notFound(`Event ${eventId} not found`);
      const sentBefore = await this.repository.deliveryIdOf(eventId, id, transaction);
      if (!sentBefore && !subscribesTo(subscription, event.event))
        throw AppError.conflict(
          'EVENT_NOT_SUBSCRIBED',
          `Webhook subscription ${id} does not subscribe to ${event.event}; add it to events first`,
        );
      const restarted = await this.repository.replay(eventId, id, transaction);
      const deliveryId = restarted ?? sentBefore!;
      if (restarted)
        await this.record('webhook.replayed', subscription, actorUserId, transaction, { eventId, deliveryId });
      const delivery = (await this.webhooks.repository.findDelivery(id, deliveryId, transaction))!;
      return { replayed: restarted !== null, delivery };
    });
  }

  /** Enables a disabled subscription (clearing its reason and failure time); an active one is answered as it is. */
  async enable(id: string, viewer: ViewerScope, actorUserId: string | null): Promise<WebhookSubscription> {
    const before = await this.webhooks.get(id, viewer);
    const enabled = await unitOfWork(this.db, async (transaction) => {
      const record = await this.repository.enable(id, transaction);
      if (record)
        await this.record('webhook.enabled', record, actorUserId, transaction, {
          disabledReason: before.disabledReason,
          disabledAt: before.disabledAt,
        });
      return record;
    });
    return enabled ?? before;
  }

  /**
   * Disables every active subscription whose deliveries have all failed for `hours`: reason and time on
   * the subscription, an audit entry, and a `webhook.disabled` event for the tenant's subscriptions that
   * name it. Safe on several workers at once: each subscription is disabled by one of them.
   */
  async disableFailing(hours: number, batch = 100): Promise<number> {
    let disabled = 0;
    for (const id of await this.repository.listFailingFor(hours, batch)) {
      const done = await unitOfWork(this.db, async (transaction) =>
        this.announce(await this.repository.disableFailing(id, hours, transaction), transaction),
      );
      if (done) disabled++;
    }
    return disabled;
  }

  /**
   * Disables a subscription whose receiver answered 410 Gone, audited and announced as the sweep does;
   * false when it was disabled already (several deliveries may meet the 410 at once: one disables it).
   */
  async disableGone(id: string, reason: string): Promise<boolean> {
    return unitOfWork(this.db, async (transaction) =>
      this.announce(await this.repository.disableGone(id, reason, transaction), transaction),
    );
  }

  /** The audit entry (no actor: the service did it) and the `webhook.disabled` event of a disable. */
  private async announce(row: DisabledSubscription | null, transaction: Transaction): Promise<boolean> {
    if (!row) return false;
    await this.webhooks.record(
      'webhook.disabled',
      row,
      null,
      { active: { from: true, to: false }, reason: row.disabledReason, failingSince: row.failingSince },
      transaction,
    );
    await this.events.appendWebhookDisabled(transaction, row.tenantId, {
      subscriptionId: row.id,
      url: row.url,
      reason: row.disabledReason,
      disabledAt: new Date(row.disabledAt).toISOString(),
      failingSince: row.failingSince ? new Date(row.failingSince).toISOString() : null,
    });
    return true;
  }

  private record(
    action: string,
    subscription: WebhookSubscription,
    actorUserId: string | null,
    transaction: Transaction,
    changes: object,
  ): Promise<void> {
    return this.webhooks.record(action, subscription, actorUserId, changes as Record<string, unknown>, transaction);
  }
}

function assertActive(subscription: WebhookSubscription): void {
  if (!subscription.active) {
    throw AppError.conflict(
      'SUBSCRIPTION_DISABLED',
      'Webhook subscription is disabled; enable it first (POST /api/v1/webhooks/{id}/enable)',
    );
  }
}

function subscribesTo(subscription: WebhookSubscription, event: string): boolean {
  if (subscription.events.includes(event)) return true;
  return subscription.events.includes('*') && event !== 'webhook.test' && event !== 'webhook.disabled';
}
