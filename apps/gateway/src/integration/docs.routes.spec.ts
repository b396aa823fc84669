import { itemSchema, joiToJsonSchema } from '@wms/shared';
import { createTestContext, request, type TestContext, type TestGateway } from '@wms/testing';

describe('OpenAPI document and docs page', () => {
  let ctx: TestContext;
  let gateway: TestGateway;

  beforeAll(async () => {
    ctx = await createTestContext('integration-docs');
    gateway = await ctx.startGateway();
  });
  afterAll(() => ctx.close());

  it('when the OpenAPI document is fetched without a key, it is served as OpenAPI 3.1 with every entity endpoint', async () => {
    const response = await request(gateway.url, 'GET', '/api/v1/integration/v1/openapi.json');

    expect(response.status).toBe(200);
    expect(response.body.openapi).toBe('3.1.0');
    expect(Object.keys(response.body.paths).sort()).toEqual(
      [
        ...['/items', '/items/bulk', '/jobs/{jobId}', '/locations', '/locations/bulk', '/partners', '/partners/bulk'],
        ...[
          '/asn',
          '/asn/bulk',
          '/asn/{asnNo}',
          '/grn',
          '/orders',
          '/orders/bulk',
          '/orders/{orderNo}',
          '/orders/{orderNo}/cancel',
          '/stock',
        ],
        '/events',
      ].sort(),
    );
  });

  it('when documents are described, /orders has its create and its list, and the ASN bulk body is { asns }', async () => {
    const response = await request(gateway.url, 'GET', '/api/v1/integration/v1/openapi.json');

    expect(Object.keys(response.body.paths['/orders']).sort()).toEqual(['get', 'post']);
    expect(response.body.components.schemas.AsnBulk.properties.asns).toMatchObject({ type: 'array', maxItems: 100 });
    expect(response.body.components.schemas.Grn.properties.lines.items.properties).toHaveProperty('asnLineNo');
    expect(response.body['x-error-codes'].map((entry) => entry.code)).toEqual(
      expect.arrayContaining(['DUPLICATE_REFERENCE', 'INVALID_STATE']),
    );
  });

  it('when the item schema is converted, the document says what the validator enforces', async () => {
    const response = await request(gateway.url, 'GET', '/api/v1/integration/v1/openapi.json');
    const item = response.body.components.schemas.Item;

    expect(item.required).toEqual(['sku', 'name', 'baseUomCode']);
    expect(item.additionalProperties).toBe(false);
    expect(item.properties.tracking).toMatchObject({
      type: 'string',
      enum: ['none', 'lot', 'serial'],
      default: 'none',
    });
    expect(item.properties.shelfLifeDays).toMatchObject({ type: ['integer', 'null'], minimum: 0 });
    expect(item.properties.tenantId).toMatchObject({ type: 'string', format: 'uuid' });
    expect(response.body.components.schemas.ItemBulk.properties.items).toMatchObject({
      type: 'array',
      minItems: 1,
      maxItems: 500,
    });
    expect(joiToJsonSchema(itemSchema).properties).not.toHaveProperty('tenantId');
  });

  it('when /docs is opened, it shows a readable page of the endpoints, schemas and error codes', async () => {
    const response = await fetch(`${gateway.url}/docs`);
    const html = await response.text();

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/text\/html/);
    expect(html).toContain('/api/v1/integration/v1/items/bulk');
    expect(html).toContain('IDEMPOTENCY_KEY_MISMATCH');
    expect(html).toContain('baseUomCode');
    expect(html).not.toMatch(/<script/i);
  });
});
