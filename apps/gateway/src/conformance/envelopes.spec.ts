import {
  UUID_V4,
  a,
  createTestContext,
  integratorOf,
  type Integrator,
  type JsonNode,
  type TestContext,
} from '@wms/testing';

const uuidV4 = () => expect.stringMatching(UUID_V4);

/** Section 4.6 of the interface: the success envelope and the bulk envelope (200 when all succeed, 207 if not). */
describe('interface 4.6: response envelopes', () => {
  let ctx: TestContext;
  let integrator: Integrator;

  beforeAll(async () => {
    ctx = await createTestContext('conformance-envelopes');
    const gateway = await ctx.startGateway();
    await ctx.startIngestWorker();
    integrator = await integratorOf(gateway.url, 'ENVELOPES');
  });
  afterAll(() => ctx.close());

  it('when a call succeeds, the answer is { status: success, data: object, requestId: UUID v4 }', async () => {
    const item = await integrator.call('POST', '/items', { sku: 'ENV-1', name: 'Envelope', baseUomCode: 'EA' });

    expect(item.status).toBe(200);
    expect(item.body).toEqual(
      a.object({ status: 'success', data: a.object({ id: a.string(), sku: 'ENV-1' }), requestId: uuidV4() }),
    );
  });

  it('when every bulk entry succeeds, it is 200 with status success, integer counts and one data entry per item', async () => {
    await integrator.call('POST', '/items', { sku: 'BULK-OLD', name: 'Before', baseUomCode: 'EA' });

    const bulk = await integrator.call('POST', '/items/bulk', {
      items: [
        { sku: 'BULK-NEW', name: 'New', baseUomCode: 'EA' },
        { sku: 'BULK-OLD', name: 'Renamed', baseUomCode: 'EA' },
      ],
    });

    expect(bulk.status).toBe(200);
    expect(bulk.body).toEqual(
      a.object({
        status: 'success',
        total: 2,
        created: 1,
        updated: 1,
        errors: [],
        data: a.nonEmptyArray(),
        requestId: a.string(),
      }),
    );
    expect(bulk.body.data).toEqual([
      a.object({ index: 0, key: 'BULK-NEW', status: 'created', data: a.object({ id: a.string(), sku: 'BULK-NEW' }) }),
      a.object({ index: 1, key: 'BULK-OLD', status: 'updated', data: a.object({ id: a.string(), sku: 'BULK-OLD' }) }),
    ]);
  });

  it('when a bulk entry fails, it is 207 with status partial, the error listed by index and key, the others done', async () => {
    const bulk = await integrator.call('POST', '/items/bulk', {
      items: [
        { sku: 'PART-1', name: 'Good', baseUomCode: 'EA' },
        { sku: 'PART-2', baseUomCode: 'EA' },
      ],
    });

    expect(bulk.status).toBe(207);
    expect(bulk.body).toEqual(
      a.object({
        status: 'partial',
        total: 2,
        created: 1,
        updated: 0,
        errors: a.nonEmptyArray(),
        data: a.nonEmptyArray(),
        requestId: a.string(),
      }),
    );
    expect(bulk.body.errors).toEqual([a.object({ index: 1, key: 'PART-2', error: a.string() })]);
    const [good, bad] = bulk.body.data as unknown as JsonNode[];
    expect(good).toEqual(
      a.object({ index: 0, key: 'PART-1', status: 'created', data: a.object({ id: a.string(), sku: 'PART-1' }) }),
    );
    expect(bad).toEqual(a.object({ index: 1, key: 'PART-2', status: 'error', error: a.string() }));
  });
});
