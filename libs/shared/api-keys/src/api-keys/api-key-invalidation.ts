import type { Logger } from '@wms/platform';
import { closeRedis, settleWithin, type RedisClient } from '@wms/platform';

const SUBSCRIBE_WAIT_MS = 2_000;

/**
 * Tells every gateway replica that a key changed (revoked, activated, edited), over Redis pub/sub.
 * Each replica drops the key from its verification cache on the message; the cache's short lifetime
 * covers a message lost while a subscriber was reconnecting.
 */
export class ApiKeyInvalidationBus {
  private readonly channel: string;

  constructor(
    private readonly publisher: RedisClient,
    private readonly subscriber: RedisClient,
    keyPrefix: string,
    private readonly logger: Logger,
  ) {
    this.channel = `${keyPrefix}:api-keys:changed`;
  }

  /** Subscribes; resolves once Redis confirmed, or at once when Redis is away (the subscriber retries by itself). */
  async start(onChanged: (keyId: string) => void, onReconnected: () => void): Promise<void> {
    this.subscriber.on('message', (channel: string, keyId: string) => {
      if (channel === this.channel) onChanged(keyId);
    });
    // Messages sent while disconnected are lost: forget every cached key when the connection comes back.
    let connectedBefore = false;
    this.subscriber.on('ready', () => {
      if (connectedBefore) onReconnected();
      connectedBefore = true;
    });
    // Not awaited without bound: with Redis away the subscriber queues the command and retries on its own.
    const subscribed = this.subscriber.subscribe(this.channel).then(
      () => undefined,
      (error: unknown) =>
        this.logger.warn({ err: error }, 'api-key invalidation: subscribe failed; relying on the cache lifetime'),
    );
    await settleWithin(subscribed, SUBSCRIBE_WAIT_MS);
  }

  publish(keyId: string): void {
    this.publisher.publish(this.channel, keyId).catch((error: unknown) => {
      this.logger.warn(
        { err: error, keyId },
        'api-key invalidation: publish failed; other replicas see the change when their cache entry expires',
      );
    });
  }

  async close(): Promise<void> {
    // QUIT would wait in the offline queue of a subscriber that never connected.
    if (this.subscriber.status !== 'ready') return this.subscriber.disconnect();
    await closeRedis(this.subscriber);
  }
}
