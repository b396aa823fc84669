import type { Transaction } from 'sequelize';

/** A business event of a document transition (CONTRACT.md section 5), with the tenant it belongs to. */
export interface DocumentEvent {
  tenantId: string;
  type: 'asn.received' | 'asn.completed' | 'order.cancelled';
  data: Record<string, unknown>;
}

/**
 * The seam where document transitions hand their events to the transactional outbox: each transition
 * calls `append` once, in its own transaction, after its rows are written. Until the outbox is wired
 * in services.ts, transitions use NO_DOCUMENT_EVENTS.
 */
export interface DocumentEvents {
  append(transaction: Transaction, event: DocumentEvent): Promise<void>;
}

export const NO_DOCUMENT_EVENTS: DocumentEvents = {
  async append() {
    // No outbox wired yet: the transition itself is complete without it.
  },
};
