import amqp from 'amqplib';
import { connect as natsConnect, credsAuthenticator, headers as natsHeaders } from '@nats-io/transport-node';
import { jetstream } from '@nats-io/jetstream';
import { TimeoutError, within } from '@wms/platform';
import type { NatsCredentials } from './destination.js';

/** One open connection to one destination's broker, publishing with a confirm. */
export interface BrokerConnection {
  /** Resolves once the broker confirmed the message (AMQP publisher confirm, JetStream PubAck). */
  publish(address: string, body: string, messageId: string, headers: Record<string, string>): Promise<string>;
  /** True once the connection is closed or failed: the pool opens a new one for the next attempt. */
  readonly broken: boolean;
  close(): Promise<void>;
}

/** `promise` within `ms`, else a TimeoutError naming what the broker did not do (the attempt's error). */
export const withinMs = <T>(promise: Promise<T>, ms: number, what: string): Promise<T> =>
  within(promise, ms, () => new TimeoutError(`${what} timed out after ${ms} ms`));

/**
 * A RabbitMQ connection with one confirm channel. `connection.blocked` (the broker is short of memory or disk)
 * fails every publish until `unblocked`, so the delivery backs off instead of waiting on a socket the broker
 * stopped reading. A channel error (an exchange that does not exist, a refused publish) breaks the connection.
 */
export async function openRabbitMq(url: string, exchange: string, timeoutMs: number): Promise<BrokerConnection> {
  const model = await withinMs(amqp.connect(url, { timeout: timeoutMs }), timeoutMs, 'RabbitMQ connect');
  let broken = false;
  let blocked: string | null = null;
  const breaks = () => {
    broken = true;
  };
  model.on('error', breaks);
  model.on('close', breaks);
  model.on('blocked', (reason) => {
    blocked = reason || 'blocked';
  });
  model.on('unblocked', () => {
    blocked = null;
  });
  let channel: amqp.ConfirmChannel;
  try {
    channel = await withinMs(model.createConfirmChannel(), timeoutMs, 'RabbitMQ channel');
  } catch (error) {
    await model.close().catch(() => undefined);
    throw error;
  }
  channel.on('error', breaks);
  channel.on('close', breaks);
  return {
    get broken() {
      return broken;
    },
    async publish(routingKey, body, messageId, headers) {
      if (blocked) throw new Error(`RabbitMQ connection blocked: ${blocked}`);
      const confirmed = new Promise<void>((resolve, reject) => {
        channel.publish(
          exchange,
          routingKey,
          Buffer.from(body),
          {
            messageId,
            persistent: true,
            contentType: 'application/json',
            timestamp: Math.floor(Date.now() / 1000),
            headers,
          },
          (error: unknown) => (error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve()),
        );
      });
      try {
        await withinMs(confirmed, timeoutMs, 'RabbitMQ publisher confirm');
      } catch (error) {
        // A confirm that did not come may still come: the channel is not trusted again.
        broken = true;
        throw error;
      }
      return `confirmed by RabbitMQ (exchange ${exchange}, routing key ${routingKey})`;
    },
    close: () => model.close().catch(() => undefined),
  };
}

/** The server URL without its user information, and the credentials to connect with. */
function natsAuth(raw: string, credentials: NatsCredentials | undefined) {
  const url = new URL(raw);
  const user = credentials?.user ?? (url.username ? decodeURIComponent(url.username) : undefined);
  const pass = credentials?.pass ?? (url.password ? decodeURIComponent(url.password) : undefined);
  url.username = '';
  url.password = '';
  return {
    servers: url.toString().replace(/\/$/, ''),
    ...(user !== undefined && { user, pass }),
    ...(credentials?.token !== undefined && { token: credentials.token }),
    ...(credentials?.creds !== undefined && {
      authenticator: credsAuthenticator(new TextEncoder().encode(credentials.creds)),
    }),
  };
}

/**
 * A NATS connection publishing to one JetStream stream. It does not reconnect by itself: a lost server breaks it
 * and the delivery's retry, paced by the backoff, opens the next one.
 */
export async function openNats(
  url: string,
  stream: string,
  credentials: NatsCredentials | undefined,
  timeoutMs: number,
): Promise<BrokerConnection> {
  const connection = await withinMs(
    natsConnect({ ...natsAuth(url, credentials), timeout: timeoutMs, reconnect: false, name: 'wms-webhook-worker' }),
    timeoutMs,
    'NATS connect',
  );
  let broken = false;
  void connection.closed().then(() => {
    broken = true;
  });
  const js = jetstream(connection, { timeout: timeoutMs });
  return {
    get broken() {
      return broken || connection.isClosed();
    },
    async publish(subject, body, messageId, headers) {
      const sent = natsHeaders();
      for (const [name, value] of Object.entries(headers)) sent.set(name, value);
      const ack = await withinMs(
        js.publish(subject, body, {
          msgID: messageId,
          headers: sent,
          timeout: timeoutMs,
          expect: { streamName: stream },
        }),
        timeoutMs,
        'JetStream PubAck',
      );
      return `stored by JetStream (stream ${ack.stream}, seq ${ack.seq}${ack.duplicate ? ', duplicate dropped' : ''})`;
    },
    close: () => connection.close().catch(() => undefined),
  };
}
