import Joi from 'joi';
import type { Transaction } from 'sequelize';
import type { Database } from '../db/models.js';
import { AppError } from '../errors/index.js';
import { validate } from '../validation/index.js';
import type { AppendEventInput, AppendedEvent, EventPage } from './event-types.js';
import { EventsRepository } from './events.repository.js';

export const FEED_MAX_LIMIT = 500;

const feedQuerySchema = Joi.object({
  after: Joi.string().pattern(/^\d{1,18}$/).allow(null),
  limit: Joi.number().integer().min(1).max(FEED_MAX_LIMIT).default(100),
});

/**
 * The transactional outbox. Every state-changing operation calls `append` with its own transaction,
 * so the event exists exactly when the change does; the webhook worker's relay takes it from there.
 */
export class EventsService {
  readonly repository: EventsRepository;

  constructor(db: Database) {
    this.repository = new EventsRepository(db);
  }

  async append(transaction: Transaction, input: AppendEventInput): Promise<AppendedEvent> {
    if (!transaction) throw new Error('EventsService.append needs the transaction of the change it records');
    return this.repository.insert(
      { tenantId: input.tenantId, event: input.event, data: { ...input.data, tenantId: input.tenantId }, relayed: false },
      transaction,
    );
  }

  /** Writes a `webhook.test` event, already relayed: it goes to one subscription only, never to the feed. */
  async appendTest(transaction: Transaction, input: { tenantId: string | null; subscriptionId: string }): Promise<AppendedEvent> {
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
   * The reconciliation feed (CONTRACT 7): the tenant's events oldest first, after the opaque cursor.
   * An event appears once the relay has given it a feed position (within a poll interval of commit).
   */
  async listForTenant(tenantId: string, afterCursor: string | null | undefined, limit = 100): Promise<EventPage> {
    const query = validate(feedQuerySchema, { after: afterCursor ?? null, limit }, 'Invalid event feed query');
    const after = query.after === null ? 0 : Number(query.after);
    if (!Number.isSafeInteger(after)) throw AppError.validation('Invalid event feed query', [{ path: 'after', message: 'after is not a cursor' }]);
    const rows = await this.repository.listByFeedPosition(tenantId, after, query.limit);
    const last = rows.at(-1);
    return {
      events: rows.map(({ position: _position, ...event }) => event),
      nextCursor: last ? String(last.position) : (query.after ?? null),
    };
  }
}
