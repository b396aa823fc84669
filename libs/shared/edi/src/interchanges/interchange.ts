/** Where an interchange came from: a partner's upload or HTTP call, or one of ours (an event, a schedule...). */
export type InterchangeSource = 'sftp' | 'http' | 'event' | 'schedule' | 'demand' | 'acknowledgment' | 'resend';

/**
 * An interchange's state. Inbound: received → processing → accepted | partially_accepted | rejected, or
 * unreadable (a TA1 answered it), or duplicate (a resend of one already read: answered as before). Outbound:
 * sent (in the partner's out/ folder) → acknowledged | acknowledged_with_errors | acknowledgment_rejected by the
 * partner's 997 (a 997 or TA1 of ours is never acknowledged: it stays sent).
 */
export type InterchangeState =
  | 'received'
  | 'processing'
  | 'accepted'
  | 'partially_accepted'
  | 'rejected'
  | 'unreadable'
  | 'duplicate'
  | 'sent'
  | 'acknowledged'
  | 'acknowledged_with_errors'
  | 'acknowledgment_rejected';

/** One interchange, without its bytes (`raw`, read on its own). */
export interface Interchange {
  id: string;
  tenantId: string;
  partnerId: string;
  direction: 'in' | 'out';
  source: InterchangeSource;
  fileName: string | null;
  /** ISA13, nine digits; null for an inbound one whose ISA could not be read. */
  interchangeControl: string | null;
  /** The transaction set codes it holds (940, 945, 997, TA1...). */
  setCodes: string[];
  sizeBytes: number;
  state: InterchangeState;
  error: string | null;
  duplicateOf: string | null;
  /** Inbound: the 997 or TA1 we answered it with. Outbound: the partner's 997 that acknowledged it. */
  acknowledgmentId: string | null;
  resentFrom: string | null;
  sourceEventId: string | null;
  createdAt: Date;
  processedAt: Date | null;
  acknowledgedAt: Date | null;
}
