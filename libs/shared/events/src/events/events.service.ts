import { Joi, validate } from '@wms/platform';
import type { Transaction } from 'sequelize';
import type { Database } from '@wms/platform';
import { AppError } from '@wms/platform';
import { assertEventData } from './event-catalogue.js';
import type { AppendEventInput, AppendedEvent, EventDataMap, EventPage } from './event-types.js';
import { EventsRepository } from './events.repository.js';

export const FEED_MAX_LIMIT = 500;

const feedQuerySchema = Joi.object({
  after: Joi.string()
    .pattern(/^\d{1,18}$/)
    .allow(null),
  limit: Joi.number().integer().min(1).max(FEED_MAX_LIMIT).default(100),
});

/**
 * The transactional outbox. Every state-changing operation calls `append` with its own transaction,
 * so the event exists exactly when the change does; the webhook worker's relay takes it from there.
 */
export class EventsService {
  readonly repository: EventsRepository;

  /**
   * `checkData`: check every appended event's data against the event catalogue; on outside production,
   * where the tests and development exercise every event; a production process skips the per-event cost
   * (tens of microseconds for an event with lines) on the operations' hot path.
   */
  constructor(
    db: Database,
    private readonly options: { checkData?: boolean } = {},
  ) {
    this.repository = new EventsRepository(db);
  }

  async append(transaction: Transaction, input: AppendEventInput): Promise<AppendedEvent> {
    if (!transaction) throw new Error('EventsService.append needs the transaction of the change it records');
    const data = { ...input.data, tenantId: input.tenantId };
    if (this.options.checkData !== false) assertEventData(input.event, data);
    return this.repository.insert({ tenantId: input.tenantId, event: input.event, data, relayed: false }, transaction);
  }

  /**
   * Writes a `webhook.disabled` event for the relay to fan out to the subscriptions that name it (the
   * disabled one is inactive by then, so it never gets its own notice). Not part of the feed.
   */
  async appendWebhookDisabled(
    transaction: Transaction,
    tenantId: string | null,
    input: EventDataMap['webhook.disabled'],
  ): Promise<AppendedEvent> {
    const data = { ...input, tenantId };
    assertEventData('webhook.disabled', data);
    return this.repository.insert({ tenantId, event: 'webhook.disabled', data, relayed: false }, transaction);
  }

  /** Writes a `webhook.test` event, already relayed: it goes to one subscription only, never to the feed. */
  async appendTest(
    transaction: Transaction,
    input: { tenantId: string | null; subscriptionId: string },
  ): Promise<AppendedEvent> {
    return this.repository.insert(
      {
        tenantId: input.tenantId,
        event: 'webhook.test',
        data: { subscriptionId: input.subscriptionId, message: 'This is a test event', tenantId: input.tenantId },
        relayed: true,
      },
      transaction,
    );
  }

  /**
   * The reconciliation feed: the tenant's events oldest first, after the opaque cursor.
   * An event appears once the relay has given it a feed position (within a poll interval of commit).
   */
  async listForTenant(tenantId: string, afterCursor: string | null | undefined, limit = 100): Promise<EventPage> {
    const query = validate(feedQuerySchema, { after: afterCursor ?? null, limit }, 'Invalid event feed query');
    const after = query.after === null ? 0 : Number(query.after);
    if (!Number.isSafeInteger(after))
      throw AppError.validation('Invalid event feed query', [{ path: 'after', message: 'after is not a cursor' }]);
    const rows = await this.repository.listByFeedPosition(tenantId, after, query.limit);
    const last = rows.at(-1);
    return {
      events: rows.map(({ position: _position, ...event }) => event),
      nextCursor: last ? String(last.position) : (query.after ?? null),
    };
  }
}
