import { eventCatalogue } from '@wms/events';
import { createApiKey, createTestContext, request, type TestContext, type TestGateway } from '@wms/testing';

describe('event catalogue: event types and the AsyncAPI document', () => {
  let ctx: TestContext;
  let gateway: TestGateway;

  beforeAll(async () => {
    ctx = await createTestContext('integration-event-types');
    gateway = await ctx.startGateway();
  });
  afterAll(() => ctx.close());

  interface EventTypesAnswer {
    data: Array<{ name: string; dataSchema: { properties: Record<string, unknown> } }>;
  }
  const eventTypes = (headers: Record<string, string>) =>
    request<EventTypesAnswer>(gateway.url, 'GET', '/api/v1/integration/v1/event-types', { headers });

  it('when a read key lists the event types, every type of the catalogue comes with its schemas in the key’s version', async () => {
    const { rawKey } = await createApiKey(ctx, { scopes: ['read'] });

    const oldest = await eventTypes({ 'x-api-key': rawKey });
    const newest = await eventTypes({ 'x-api-key': rawKey, 'wms-version': '2026-12-01' });

    expect(oldest.status).toBe(200);
    expect(oldest.body.data.map((type) => type.name).sort()).toEqual(Object.keys(eventCatalogue).sort());
    const qtyDelta = (body: EventTypesAnswer) =>
      body.data.find((type) => type.name === 'stock.adjusted')?.dataSchema.properties.qtyDelta;
    expect(qtyDelta(oldest.body)).toMatchObject({ type: 'number' });
    expect(qtyDelta(newest.body)).toMatchObject({ type: 'string' });
  });

  it('when the event types are asked without a key, the answer is 401', async () => {
    const response = await eventTypes({});

    expect(response.status).toBe(401);
  });

  it('when the AsyncAPI document is fetched without a key, it is AsyncAPI 3.0 in the version asked', async () => {
    const response = await request(gateway.url, 'GET', '/api/v1/integration/v1/asyncapi.json?version=2026-11-21');

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ asyncapi: '3.0.0', info: { version: '2026-11-21' } });
    expect(Object.keys(response.body.channels).sort()).toEqual(['http', 'nats', 'rabbitmq']);
  });

  it('when the AsyncAPI document is asked in an unknown version, the answer is 400 and names the known ones', async () => {
    const response = await request(gateway.url, 'GET', '/api/v1/integration/v1/asyncapi.json?version=1999-01-01');

    expect(response.status).toBe(400);
    expect(JSON.stringify(response.body)).toContain('2026-12-01');
  });

  it('when the docs page is opened, it links the AsyncAPI document', async () => {
    const page = await (await fetch(`${gateway.url}/docs`)).text();

    expect(page).toContain('href="/api/v1/integration/v1/asyncapi.json"');
  });
});
