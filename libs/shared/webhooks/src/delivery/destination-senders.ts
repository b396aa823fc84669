import { BROKER_IDLE_MS, BROKER_MAX_CONNECTIONS, BrokerPublisher } from '../destinations/index.js';
import type { DeliveryWork } from './delivery.repository.js';
import { createWebhookSender, type SendResult, type WebhookSender } from './http-sender.js';
import type { SecretBox } from '../subscriptions/index.js';

/** A broker's confirm, in the place of an HTTP answer: no status code, what the broker said as the snippet. */
export interface BrokerAck {
  statusCode: null;
  headers: Record<string, never>;
  snippet: string;
}

export type Sent = SendResult | BrokerAck;

/**
 * A destination that turns the event into a document of its own (an EDI advice in a trading partner's
 * mailbox, ADR 0207): given by the process that has one, since this library knows nothing of what it writes.
 * Resolves with what the attempt's log shows (the snippet) once the document is stored; throws to retry.
 */
export interface DocumentDestination {
  deliver(work: DeliveryWork, body: string, headers: Record<string, string>): Promise<string>;
}

/**
 * The senders of every attempt, by destination kind: the HTTP client (made once; its agents keep
 * subscribers' connections alive) and the broker connections. Another kind of destination is one more
 * sender here; the delivery rules around it stay the same.
 */
export class DestinationSenders {
  private readonly http: WebhookSender;
  readonly brokers: BrokerPublisher;

  constructor(
    options: { timeoutMs: number; allowPrivate: boolean },
    secrets: SecretBox,
    /** The writer of `edi` destinations' documents; without one, their attempts fail and are retried. */
    private readonly documents?: DocumentDestination,
  ) {
    this.http = createWebhookSender(options);
    this.brokers = new BrokerPublisher({
      timeoutMs: options.timeoutMs,
      maxConnections: BROKER_MAX_CONNECTIONS,
      idleMs: BROKER_IDLE_MS,
      open: (sealed) => secrets.open(sealed),
    });
  }

  /** One send: every HTTP status is returned; a broker resolves once it confirmed and throws when it did not. */
  async send(work: DeliveryWork, body: string, headers: Record<string, string>): Promise<Sent> {
    if (work.destinationKind === 'http') return this.http.post(work.url, body, headers);
    if (work.destinationKind === 'edi') {
      if (!this.documents) throw new Error('this process has no EDI document writer');
      return { statusCode: null, headers: {}, snippet: await this.documents.deliver(work, body, headers) };
    }
    const snippet = await this.brokers.publish(
      { ...work, destinationKind: work.destinationKind, destinationSecretSealed: work.destinationSecretSealed ?? '' },
      body,
      headers,
    );
    return { statusCode: null, headers: {}, snippet };
  }

  close(): Promise<void> {
    return this.brokers.close();
  }
}
