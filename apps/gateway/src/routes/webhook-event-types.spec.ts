import { businessEventNames, eventCatalogue } from '@wms/events';
import {
  TEST_ADMIN,
  createTenantWithWarehouse,
  createTestContext,
  loginAs,
  request,
  sampleEvents,
  type TestContext,
  type TestGateway,
} from '@wms/testing';

interface EventTypeAnswer {
  name: string;
  description: string;
  subscribable: boolean;
  includedInWildcard: boolean;
  dataSchema: Schema & { properties: Record<string, { type: unknown }> };
}

interface OpenApiAnswer {
  openapi: string;
  webhooks: Record<
    string,
    {
      post: {
        parameters: Array<{ name: string }>;
        requestBody: { content: Record<string, { schema: { properties: { data: unknown } } }> };
      };
    }
  >;
}

type Schema = { type?: unknown; required?: string[]; properties?: Record<string, Schema>; items?: Schema };

/** The keys a value must have by a JSON Schema, checked recursively: what a receiver's validator would check first. */
function missingKeys(schema: Schema, value: unknown, path = 'data'): string[] {
  if (Array.isArray(value))
    return value.flatMap((item, index) => missingKeys(schema.items ?? {}, item, `${path}[${index}]`));
  if (!value || typeof value !== 'object') return [];
  const object = value as Record<string, unknown>;
  const missing = (schema.required ?? []).filter((key) => !(key in object)).map((key) => `${path}.${key}`);
  const unknown = Object.keys(object)
    .filter((key) => !(key in (schema.properties ?? {})))
    .map((key) => `${path}.${key} (not in schema)`);
  const nested = Object.entries(schema.properties ?? {}).flatMap(([key, child]) =>
    missingKeys(child, object[key], `${path}.${key}`),
  );
  return [...missing, ...unknown, ...nested];
}

describe('webhook event catalogue', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let token: string;

  beforeAll(async () => {
    ctx = await createTestContext('webhook-event-types');
    gateway = await ctx.startGateway();
    token = await loginAs(gateway.url, TEST_ADMIN.email, TEST_ADMIN.password);
  });
  afterAll(() => ctx.close());

  it('lists every event with its description and a JSON Schema its real data satisfies', async () => {
    const response = await request<EventTypeAnswer[]>(gateway.url, 'GET', '/api/v1/webhooks/event-types', { token });

    expect(response.status).toBe(200);
    const byName = Object.fromEntries(response.body.map((type) => [type.name, type]));
    expect(Object.keys(byName).sort()).toEqual(Object.keys(eventCatalogue).sort());
    for (const name of businessEventNames) {
      expect(byName[name]).toMatchObject({
        subscribable: true,
        includedInWildcard: true,
        description: expect.any(String),
      });
    }
    expect(byName['webhook.disabled']).toMatchObject({ subscribable: true, includedInWildcard: false });
    expect(byName['webhook.test']).toMatchObject({ subscribable: false, includedInWildcard: false });
    for (const input of sampleEvents('6f9619ff-8b86-4d11-b42d-00c04fc964ff')) {
      const schema = byName[input.event]!.dataSchema;
      expect(missingKeys(schema, { ...input.data, tenantId: input.tenantId })).toEqual([]);
    }
    expect(byName['order.shipped']!.dataSchema.properties.trackingNo!.type).toEqual(['string', 'null']);
  });

  it('needs a login with the webhooks module', async () => {
    const response = await request(gateway.url, 'GET', '/api/v1/webhooks/event-types');

    expect(response.status).toBe(401);
  });

  it('the OpenAPI document carries the same events as top-level webhooks (OpenAPI 3.1)', async () => {
    const catalogue = await request<EventTypeAnswer[]>(gateway.url, 'GET', '/api/v1/webhooks/event-types', { token });
    // The catalogue's schemas write quantities as numbers, as the 2026-11-21 document does (order.shipped has lines).
    const document = await request<OpenApiAnswer>(
      gateway.url,
      'GET',
      '/api/v1/integration/v1/openapi.json?version=2026-11-21',
    );

    expect(document.body.openapi).toMatch(/^3\.1\./);
    expect(Object.keys(document.body.webhooks).sort()).toEqual(catalogue.body.map((type) => type.name).sort());
    const shipped = document.body.webhooks['order.shipped']!.post;
    expect(shipped.requestBody.content['application/json']!.schema.properties.data).toEqual(
      catalogue.body.find((type) => type.name === 'order.shipped')!.dataSchema,
    );
    expect(shipped.parameters.map((parameter) => parameter.name)).toEqual([
      'webhook-id',
      'webhook-timestamp',
      'webhook-signature',
    ]);
  });

  it('the outbox refuses an event whose data does not match its definition, and the change with it', async () => {
    const { tenant } = await createTenantWithWarehouse(ctx);
    const wrong = { ...sampleEvents(tenant.id)[4]!, data: { orderNo: 'SO-1' } } as never;

    const attempt = ctx.runtime.db.sequelize.transaction((transaction) =>
      ctx.services.events.append(transaction, wrong),
    );

    await expect(attempt).rejects.toThrow(/order\.shipped data does not match/);
    const [rows] = (await ctx.runtime.db.sequelize.query(
      'SELECT count(*)::int AS n FROM events WHERE tenant_id = :id',
      {
        replacements: { id: tenant.id },
      },
    )) as [Array<{ n: number }>, unknown];
    expect(rows[0]!.n).toBe(0);
  });
});
