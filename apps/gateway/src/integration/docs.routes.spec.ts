import { AppLifecycle, joiToJsonSchema, openApiPath } from '@wms/platform';
import { itemSchema } from '@wms/warehouse';
import { createTestContext, request, type TestContext, type TestGateway } from '@wms/testing';
import { integrationRouter } from './integration.router.js';

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
        ...['/items/{sku}', '/stock/levels'],
        ...['/edi', '/edi/interchanges/{interchangeId}'],
        ...['/imports', '/jobs/{jobId}/errors', '/jobs/{jobId}/file'],
        ...[
          '/asn',
          '/asn/bulk',
          '/asn/{asnNo}',
          '/grn',
          '/orders',
          '/orders/bulk',
          '/orders/{orderNo}',
          '/orders/{orderNo}/cancel',
          '/returns',
          '/returns/bulk',
          '/returns/{rmaNo}',
          '/stock',
          '/stock/movements',
          '/stock/snapshots',
        ],
        '/events',
        '/event-types',
        '/simulations',
      ].sort(),
    );
  });

  it('when documents are described, /orders has its create and its list, and the ASN bulk body is { asns }', async () => {
    const response = await request(gateway.url, 'GET', '/api/v1/integration/v1/openapi.json');

    expect(Object.keys(response.body.paths['/orders']).sort()).toEqual(['get', 'post']);
    expect(response.body.components.schemas.AsnBulk.properties.asns).toMatchObject({ type: 'array', maxItems: 100 });
    expect(response.body.components.schemas.Grn.properties.lines.items.properties).toHaveProperty('asnLineNo');
    expect(response.body['x-error-codes'].map((entry) => entry.code)).toEqual(
      expect.arrayContaining(['DUPLICATE_REFERENCE', 'INVALID_STATE', 'TOO_MANY_INVALID_KEYS']),
    );
  });

  it('when the catalogue reads are described, each list takes its keys repeated and answers every field typed', async () => {
    const response = await request(gateway.url, 'GET', '/api/v1/integration/v1/openapi.json');
    const items = response.body.paths['/items'];
    const sku = items.get.parameters.find((parameter) => String(parameter.name) === 'sku');
    const page = items.get.responses['200'].content['application/json'].schema;
    const levelsIn = async (version: string) =>
      (await request(gateway.url, 'GET', `/api/v1/integration/v1/openapi.json?version=${version}`)).body.paths[
        '/stock/levels'
      ].get.responses['200'].content['application/json'].schema.properties.data.items.properties.stocks.items;

    expect(Object.keys(items).sort()).toEqual(['get', 'post']);
    expect(sku).toMatchObject({ in: 'query', required: false, schema: { type: 'array', maxItems: 100 } });
    expect(page.properties.data.items.properties).toMatchObject({
      sku: { type: 'string' },
      weightKg: { type: ['number', 'null'] },
      updatedAt: { type: 'string' },
    });
    expect((await levelsIn('2026-11-21')).properties.qtyOnHand).toEqual({ type: 'number' });
    expect((await levelsIn('2026-12-01')).properties.qtyOnHand).toMatchObject({ type: 'string' });
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

  it('when /docs is opened, it is the renderer served from the gateway under its CSP: scripts from the gateway only, none inline', async () => {
    const response = await fetch(`${gateway.url}/docs`);
    const html = await response.text();
    const csp = response.headers.get('content-security-policy')!;
    const scriptSources = [...html.matchAll(/<script\b([^>]*)>/gi)].map(([, attributes]) => attributes);
    const bundle = await fetch(`${gateway.url}/docs/assets/swagger-ui-bundle.js`);

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/text\/html/);
    expect(scriptSources.length).toBeGreaterThan(0);
    expect(scriptSources.every((attributes) => /\bsrc="\/docs\//.test(attributes))).toBe(true);
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(csp).toContain("default-src 'none'");
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toMatch(/javascript/);
    expect((await fetch(`${gateway.url}/docs/assets/index.html`)).status).toBe(404);
  });

  it('every route of the integration router is in the document, and every operation of the document is a route', async () => {
    const lifecycle = new AppLifecycle();
    const router = integrationRouter(gateway.runtime, gateway.services, lifecycle, (_req, _res, next) => next());
    const response = await request(gateway.url, 'GET', '/api/v1/integration/v1/openapi.json');
    await lifecycle.close();

    const documented = Object.entries(response.body.paths as Record<string, object>).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(
      routesOf(router)
        .map(({ method, path }) => `${method} ${openApiPath(path)}`)
        .sort(),
    ).toEqual(documented.sort());
  });
});

interface Layer {
  route?: { path: string; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
}

/**
 * The routes an Express router mounts, nested routers included (mounted at their parent's root), read from
 * its layer stack, which Express's types do not describe.
 */
function routesOf(router: unknown): { method: string; path: string }[] {
  return ((router as { stack?: Layer[] }).stack ?? []).flatMap((layer) => {
    if (layer.route) {
      const { path, methods } = layer.route;
      return Object.keys(methods)
        .filter((method) => methods[method])
        .map((method) => ({ method: method.toUpperCase(), path }));
    }
    return layer.handle?.stack ? routesOf(layer.handle) : [];
  });
}
