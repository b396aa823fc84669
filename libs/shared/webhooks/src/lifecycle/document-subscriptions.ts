import type { Transaction } from 'sequelize';
import type { Database } from '@wms/platform';
import {
  DocumentSubscriptionsRepository,
  type DocumentSubscriptionValues,
} from './document-subscriptions.repository.js';
import { LifecycleRepository } from './lifecycle.repository.js';
import { generateWebhookSecret, type SecretBox } from '../subscriptions/index.js';

/**
 * Keeps the subscription of a document destination (a trading partner's EDI mailbox, ADR 0207) for the
 * library that owns the destination: made, changed or removed in the caller's transaction. Its deliveries
 * run through the one delivery system (order per document, retries with backoff, the delivery log); its
 * secret is sealed like any other, though a document destination does not verify signatures.
 */
export class DocumentSubscriptions {
  private readonly repository: DocumentSubscriptionsRepository;
  private readonly lifecycle: LifecycleRepository;

  constructor(
    db: Database,
    private readonly secrets: SecretBox,
  ) {
    this.repository = new DocumentSubscriptionsRepository(db);
    this.lifecycle = new LifecycleRepository(db);
  }

  /**
   * Makes or changes the subscription (`current` is its id, when there is one) and returns its id; with no
   * events to follow, removes it and returns null.
   */
  async put(
    current: string | null,
    values: DocumentSubscriptionValues,
    transaction: Transaction,
  ): Promise<string | null> {
    const existing = current ? await this.repository.find(current, transaction) : null;
    if (values.events.length === 0) {
      if (existing) await this.repository.delete(existing.id, transaction);
      return null;
    }
    if (existing) return (await this.repository.update(existing.id, values, transaction))!.id;
    const created = await this.repository.insert(
      { ...values, secretSealed: this.secrets.seal(generateWebhookSecret()) },
      transaction,
    );
    return created.id;
  }

  async remove(id: string, transaction: Transaction): Promise<boolean> {
    return this.repository.delete(id, transaction);
  }

  /**
   * Starts a new run of the subscription's failed deliveries created since `since` (at most `limit`), as the
   * subscriptions API's recover does for its own: the relay queues them again. Resolves with their ids.
   */
  async recover(id: string, since: Date, limit: number, transaction: Transaction): Promise<string[]> {
    if (!(await this.repository.find(id, transaction))) return [];
    return this.lifecycle.recover(id, since, new Date(), limit, transaction);
  }
}
