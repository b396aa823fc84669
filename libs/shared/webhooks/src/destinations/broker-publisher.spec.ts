import { randomBytes, randomUUID } from 'node:crypto';
import amqp from 'amqplib';
import { BrokerPublisher, type BrokerDelivery } from './broker-publisher.js';

const AMQP_URL = process.env.TEST_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';

describe('broker connections of a worker', () => {
  const exchange = `wms-pool-${randomBytes(4).toString('hex')}`;
  let admin: amqp.ChannelModel;

  beforeAll(async () => {
    admin = await amqp.connect(AMQP_URL);
    const channel = await admin.createChannel();
    await channel.assertExchange(exchange, 'topic', { durable: false });
    await channel.close();
  });
  afterAll(async () => {
    const channel = await admin.createChannel();
    await channel.deleteExchange(exchange);
    await admin.close();
  });

  // The sealed part is the JSON itself here: the publisher opens it with the function it is given.
  const delivery = (subscriptionId: string, url = AMQP_URL): BrokerDelivery => ({
    subscriptionId,
    eventId: randomUUID(),
    event: 'order.shipped',
    data: { orderNo: 'SO-1', shipmentNo: 'SH-1', trackingNo: null, tenantId: null },
    destinationKind: 'rabbitmq',
    destinationSettings: { exchange, routingKey: 'wms.{event}.{documentKey}' },
    destinationSecretSealed: JSON.stringify({ url }),
  });
  const publisherWith = (maxConnections: number, idleMs = 60_000) =>
    new BrokerPublisher({ timeoutMs: 5_000, maxConnections, idleMs, open: (sealed) => sealed });

  it('when many deliveries of one destination are published at once, they share one connection', async () => {
    const publisher = publisherWith(10);

    const answers = await Promise.all(Array.from({ length: 20 }, () => publisher.publish(delivery('one'), '{}', {})));

    expect(publisher.size).toBe(1);
    expect(answers.every((answer) => answer.startsWith('confirmed by RabbitMQ'))).toBe(true);
    await publisher.close();
  });

  it('when more destinations are used than the bound, the least recently used connection is closed', async () => {
    const publisher = publisherWith(2);

    for (const subscription of ['a', 'b', 'c']) await publisher.publish(delivery(subscription), '{}', {});

    expect(publisher.size).toBe(2);
    await publisher.close();
  });

  it('when a destination refuses the connection, the attempts waiting on it all fail and nothing stays open', async () => {
    const publisher = publisherWith(10);
    const refused = delivery('refused', AMQP_URL.replace('guest:guest', 'guest:wrong'));

    const outcomes = await Promise.allSettled(Array.from({ length: 5 }, () => publisher.publish(refused, '{}', {})));

    expect(outcomes.every((outcome) => outcome.status === 'rejected')).toBe(true);
    expect(publisher.size).toBe(0);
    await publisher.close();
  });
});
