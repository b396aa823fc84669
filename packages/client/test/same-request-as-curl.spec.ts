import { QueryTypes } from 'sequelize';
import {
  createApiKey,
  createTestContext,
  defaultTenantId,
  waitFor,
  type TestContext,
  type TestGateway,
} from '@wms/testing';
import { createClient, INTEGRATION_BASE, WmsApiError } from '../src/index.js';
import { startFailingProxy } from './failing-proxy.js';

/**
 * What the client sends is what a curl user sends: the same body with the same Idempotency-Key is one request
 * whichever of the two sent it, its JSON keys or its query parameters in any order. Against the real service.
 */
describe('the client and a raw HTTP caller sharing an Idempotency-Key', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let apiKey: string;
  let tenantId: string;

  beforeAll(async () => {
    ctx = await createTestContext('client-as-curl');
    gateway = await ctx.startGateway();
    await ctx.startIngestWorker();
    tenantId = await defaultTenantId(ctx);
    apiKey = (await createApiKey(ctx, { tenantId })).rawKey;
  });
  afterAll(() => ctx?.close());

  /** A call as curl makes it: the text given, the key header, nothing added. */
  const curl = (path: string, body: string, headers: Record<string, string>) =>
    fetch(`${gateway.url}${INTEGRATION_BASE}${path}`, {
      method: 'POST',
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json', ...headers },
      body,
    });
  const itemCount = async (sku: string) =>
    (
      await ctx.runtime.db.sequelize.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM items WHERE tenant_id = $1 AND sku = $2',
        { bind: [tenantId, sku], type: QueryTypes.SELECT },
      )
    )[0]!.n;

  it('when curl repeats the client’s bulk call with the JSON keys in another order, the client’s answer is replayed', async () => {
    const client = createClient({ baseUrl: gateway.url, apiKey });
    const sent = await client.items.bulk(
      { items: [{ sku: 'CURL-1', name: 'Blue mug', baseUomCode: 'EA', weightKg: 0.35 }] },
      { idempotencyKey: 'shop-sync-1' },
    );

    const repeated = await curl(
      '/items/bulk',
      '{ "items": [ { "weightKg": 0.350, "baseUomCode": "EA", "name": "Blue mug", "sku": "CURL-1" } ] }',
      { 'idempotency-key': 'shop-sync-1' },
    );

    expect(sent).toMatchObject({ status: 'success', total: 1, created: 1 });
    expect(repeated.status).toBe(200);
    expect(repeated.headers.get('idempotent-replay')).toBe('true');
    expect(await repeated.json()).toMatchObject({ status: 'success', total: 1, created: 1, requestId: sent.requestId });
    expect(await itemCount('CURL-1')).toBe(1);
  });

  it('when the client repeats curl’s upload with the query parameters in another order, curl’s answer is replayed', async () => {
    const crossTenant = (await createApiKey(ctx, { tenantId: null })).rawKey;
    const file = `${JSON.stringify({ sku: 'CURL-2', name: 'Red mug', baseUomCode: 'EA' })}\n`;
    const first = await fetch(`${gateway.url}${INTEGRATION_BASE}/imports?tenantId=${tenantId}&entity=items`, {
      method: 'POST',
      headers: { 'x-api-key': crossTenant, 'content-type': 'application/x-ndjson', 'idempotency-key': 'file-1' },
      body: file,
    });
    const client = createClient({ baseUrl: gateway.url, apiKey: crossTenant });

    // The client writes ?entity=items&tenantId=…: the other order.
    const repeated = await client.imports.upload(new Blob([file]), {
      entity: 'items',
      tenantId,
      idempotencyKey: 'file-1',
    });

    expect(first.status).toBe(202);
    expect(repeated).toEqual(await first.json());
  });

  it('when the same key comes with another body, the client throws 409 IDEMPOTENCY_KEY_MISMATCH naming the body', async () => {
    const client = createClient({ baseUrl: gateway.url, apiKey });
    await curl('/items/bulk', JSON.stringify({ items: [{ sku: 'CURL-3', name: 'Mug', baseUomCode: 'EA' }] }), {
      'idempotency-key': 'shop-sync-3',
    });

    const refused = client.items.bulk(
      { items: [{ sku: 'CURL-3', name: 'Mug, renamed', baseUomCode: 'EA' }] },
      { idempotencyKey: 'shop-sync-3' },
    );

    await expect(refused).rejects.toBeInstanceOf(WmsApiError);
    await expect(refused).rejects.toMatchObject({
      statusCode: 409,
      code: 'IDEMPOTENCY_KEY_MISMATCH',
      message: 'This Idempotency-Key was used with a different request: its body differs',
      details: [{ path: 'body', message: expect.any(String) }],
    });
  });

  it('when the same key comes with another query, the client throws 409 IDEMPOTENCY_KEY_MISMATCH naming the query', async () => {
    const client = createClient({ baseUrl: gateway.url, apiKey });
    const body = { items: [{ sku: 'CURL-4', name: 'Mug', baseUomCode: 'EA' }] };
    await client.items.bulk(body, { idempotencyKey: 'shop-sync-4', dryRun: true });

    const refused = client.items.bulk(body, { idempotencyKey: 'shop-sync-4' });

    await expect(refused).rejects.toMatchObject({
      statusCode: 409,
      code: 'IDEMPOTENCY_KEY_MISMATCH',
      details: [{ path: 'query', message: expect.any(String) }],
    });
    expect(await itemCount('CURL-4')).toBe(0);
  });

  it('when the first answer hangs, the attempt is abandoned at its timeout and sent again with its key: written once, replayed', async () => {
    const proxy = await startFailingProxy(gateway.url, { failures: 1, hang: true });
    const client = createClient({ baseUrl: proxy.url, apiKey, timeoutMs: 5_000 });
    try {
      const written = await client.items.upsert({ sku: 'CURL-5', name: 'Hung', baseUomCode: 'EA' });

      const [first, second] = proxy.forwarded;
      expect(proxy.forwarded).toHaveLength(2);
      expect(second!.headers['idempotency-key']).toBe(first!.headers['idempotency-key']);
      expect([first!.replayed, second!.replayed]).toEqual([null, 'true']);
      expect(written.data).toMatchObject({ sku: 'CURL-5', created: true });
      expect(await itemCount('CURL-5')).toBe(1);
    } finally {
      await proxy.close();
    }
  });

  it('when every attempt hangs, the call rejects with a TimeoutError after its last attempt', async () => {
    const proxy = await startFailingProxy(gateway.url, { failures: 3, hang: true });
    const client = createClient({ baseUrl: proxy.url, apiKey, timeoutMs: 500, retries: 2 });
    try {
      const read = client.stock.get({ sku: 'CURL-5', warehouseCode: 'MAIN' });

      await expect(read).rejects.toMatchObject({ name: 'TimeoutError' });
      const forwarded = await waitFor(
        () => Promise.resolve(proxy.forwarded.map((request) => request.method)),
        (methods) => methods.length >= 3,
        10_000,
      );
      expect(forwarded).toEqual(['GET', 'GET', 'GET']);
    } finally {
      await proxy.close();
    }
  });
});
