import { TEST_ADMIN, createTestContext, loginAs, request, type TestContext, type TestGateway } from '@wms/testing';

interface Subscription {
  id: string;
  url: string;
  secret?: string;
  destination: Record<string, unknown>;
}

describe('webhook subscriptions API: broker destinations', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let adminToken: string;

  beforeAll(async () => {
    ctx = await createTestContext('webhook-destinations-routes', { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
    gateway = await ctx.startGateway();
    adminToken = await loginAs(gateway.url, TEST_ADMIN.email, TEST_ADMIN.password);
  });
  afterAll(() => ctx.close());

  const create = (body: unknown) =>
    request<Subscription>(gateway.url, 'POST', '/api/v1/webhooks', { token: adminToken, body });

  it('when a RabbitMQ subscription is created, the answer and the audit log show its URL masked and never the password', async () => {
    const created = await create({
      destination: {
        kind: 'rabbitmq',
        url: 'amqp://erp:s3cret-pass@127.0.0.1:5672/erp',
        exchange: 'wms.events',
        routingKey: 'wms.{tenantId}.{event}',
      },
      events: ['order.shipped'],
    });
    const read = await request<Subscription>(gateway.url, 'GET', `/api/v1/webhooks/${created.body.id}`, {
      token: adminToken,
    });
    const audit = await request(gateway.url, 'GET', `/api/v1/audit-logs?entityId=${created.body.id}`, {
      token: adminToken,
    });

    expect(created.status).toBe(201);
    expect(created.body.secret).toMatch(/^whsec_/);
    expect(read.body.url).toBe('amqp://erp:****@127.0.0.1:5672/erp');
    expect(read.body.destination).toEqual({
      kind: 'rabbitmq',
      url: 'amqp://erp:****@127.0.0.1:5672/erp',
      exchange: 'wms.events',
      routingKey: 'wms.{tenantId}.{event}',
    });
    expect(audit.status).toBe(200);
    expect(JSON.stringify(audit.body)).toContain('amqp://erp:****@127.0.0.1:5672/erp');
    for (const text of [JSON.stringify(created.body), JSON.stringify(read.body), JSON.stringify(audit.body)]) {
      expect(text).not.toContain('s3cret-pass');
    }
  });

  it('when a NATS subscription is created with credentials, the answer says it has them and shows none', async () => {
    const created = await create({
      destination: {
        kind: 'nats',
        url: 'nats://127.0.0.1:4222',
        stream: 'WMS',
        credentials: { user: 'erp', pass: 'nats-secret' },
      },
      events: ['*'],
    });

    expect(created.status).toBe(201);
    expect(created.body.destination).toEqual({
      kind: 'nats',
      url: 'nats://127.0.0.1:4222',
      stream: 'WMS',
      subject: 'wms.{event}.{documentKey}',
      hasCredentials: true,
    });
    expect(JSON.stringify(created.body)).not.toContain('nats-secret');
  });

  it.each([
    [
      'an unknown template variable',
      { kind: 'rabbitmq', url: 'amqp://h:5672', exchange: 'x', routingKey: 'wms.{sku}' },
    ],
    ['a URL of another scheme', { kind: 'rabbitmq', url: 'http://h:5672', exchange: 'x' }],
    ['a URL whose port is out of range', { kind: 'rabbitmq', url: 'amqp://h:99999', exchange: 'x' }],
    ['an unknown kind', { kind: 'kafka', url: 'kafka://h:9092' }],
    ['a NATS destination without a stream', { kind: 'nats', url: 'nats://h:4222' }],
    ['an exchange on a NATS destination', { kind: 'nats', url: 'nats://h:4222', stream: 'S', exchange: 'x' }],
  ])('when a destination has %s, the answer is 400 and nothing is stored', async (_what, destination) => {
    const before = await ctx.runtime.db.sequelize.query('SELECT count(*)::int AS n FROM webhook_subscriptions');

    const response = await create({ destination, events: ['*'] });

    expect(response.status).toBe(400);
    expect(await ctx.runtime.db.sequelize.query('SELECT count(*)::int AS n FROM webhook_subscriptions')).toEqual(
      before,
    );
  });

  it('when a broker subscription is patched with a url, the answer is 400: a broker changes its destination', async () => {
    const created = await create({
      destination: { kind: 'nats', url: 'nats://127.0.0.1:4222', stream: 'WMS' },
      events: ['*'],
    });

    const response = await request(gateway.url, 'PATCH', `/api/v1/webhooks/${created.body.id}`, {
      token: adminToken,
      body: { url: 'https://example.com/hook' },
    });

    expect(response.status).toBe(400);
  });
});
