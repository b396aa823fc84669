import type { EventName } from '@wms/events';
import { renderAddress } from './address-template.js';
import { openNats, openRabbitMq, withinMs, type BrokerConnection } from './broker-connection.js';
import type { SealedDestination } from './destination.js';

/** What one broker delivery needs of its delivery record. */
export interface BrokerDelivery {
  subscriptionId: string;
  eventId: string;
  event: EventName;
  data: Record<string, unknown>;
  destinationKind: 'rabbitmq' | 'nats';
  destinationSettings: Record<string, unknown> | null;
  /** The sealed URL and credentials: a changed destination is a new key, so a new connection. */
  destinationSecretSealed: string;
}

export interface BrokerPublisherOptions {
  /** Connect, and wait for each confirm, at most this long. */
  timeoutMs: number;
  /** Connections open at once in this process; past it the least recently used is closed. */
  maxConnections: number;
  /** A connection unused for this long is closed. */
  idleMs: number;
  /** Opens the sealed part of a destination. */
  open: (sealed: string) => string;
}

/** The connections a worker keeps, at most one per destination; with the defaults of the worker. */
export const BROKER_MAX_CONNECTIONS = 200;
export const BROKER_IDLE_MS = 60_000;

interface Entry {
  connection: Promise<BrokerConnection>;
  lastUsed: number;
}

/**
 * Publishes deliveries to RabbitMQ and NATS JetStream. One connection per destination (subscription and
 * sealed address), opened on first use, reused while it works, closed when idle or when the pool is full; a
 * destination that does not answer costs its own attempts only (each connect and confirm has a deadline), so
 * HTTP deliveries and other brokers go on.
 */
export class BrokerPublisher {
  private readonly entries = new Map<string, Entry>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly options: BrokerPublisherOptions) {
    this.sweeper = setInterval(() => void this.closeIdle(), Math.max(1_000, options.idleMs / 2));
    this.sweeper.unref();
  }

  /** Resolves with what the broker said once it confirmed the message; throws when it did not. */
  async publish(delivery: BrokerDelivery, body: string, headers: Record<string, string>): Promise<string> {
    const key = `${delivery.subscriptionId}:${delivery.destinationSecretSealed}`;
    const connection = await this.connectionFor(key, delivery);
    const settings = delivery.destinationSettings ?? {};
    const template = String(delivery.destinationKind === 'rabbitmq' ? settings.routingKey : settings.subject);
    const address = renderAddress(template, delivery.event, delivery.data);
    return connection.publish(address, body, delivery.eventId, headers);
  }

  /** How many connections are open now (for the specs and the bench). */
  get size(): number {
    return this.entries.size;
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    const entries = [...this.entries.values()];
    this.entries.clear();
    await Promise.all(entries.map((entry) => closeEntry(entry)));
  }

  /**
   * The destination's open connection, or one opened now. Attempts that arrive while it opens share it, and
   * share its failure (each then backs off) rather than each opening one more; a broken one is replaced once.
   */
  private async connectionFor(key: string, delivery: BrokerDelivery): Promise<BrokerConnection> {
    for (let known = this.entries.get(key); known; known = this.entries.get(key)) {
      known.lastUsed = Date.now();
      let connection: BrokerConnection;
      try {
        connection = await known.connection;
      } catch (error) {
        if (this.entries.get(key) === known) this.entries.delete(key);
        throw error;
      }
      if (!connection.broken) return connection;
      if (this.entries.get(key) === known) {
        this.entries.delete(key);
        void connection.close();
      }
    }
    if (this.entries.size >= this.options.maxConnections) this.closeLeastRecent();
    const entry: Entry = { connection: this.openFor(delivery), lastUsed: Date.now() };
    this.entries.set(key, entry);
    try {
      return await entry.connection;
    } catch (error) {
      if (this.entries.get(key) === entry) this.entries.delete(key);
      throw error;
    }
  }

  private openFor(delivery: BrokerDelivery): Promise<BrokerConnection> {
    const sealed = JSON.parse(this.options.open(delivery.destinationSecretSealed)) as SealedDestination;
    const settings = delivery.destinationSettings ?? {};
    const { timeoutMs } = this.options;
    const opening =
      delivery.destinationKind === 'rabbitmq'
        ? openRabbitMq(sealed.url, String(settings.exchange), timeoutMs)
        : openNats(sealed.url, String(settings.stream), sealed.credentials, timeoutMs);
    return withinMs(opening, timeoutMs, 'broker connect');
  }

  private closeLeastRecent(): void {
    const [oldest] = [...this.entries.entries()].sort(([, a], [, b]) => a.lastUsed - b.lastUsed);
    if (!oldest) return;
    this.entries.delete(oldest[0]);
    void closeEntry(oldest[1]);
  }

  private async closeIdle(): Promise<void> {
    const before = Date.now() - this.options.idleMs;
    for (const [key, entry] of this.entries) {
      if (entry.lastUsed >= before) continue;
      this.entries.delete(key);
      await closeEntry(entry);
    }
  }
}

async function closeEntry(entry: Entry): Promise<void> {
  const connection = await entry.connection.catch(() => null);
  await connection?.close();
}
