import {
  UUID_V4,
  a,
  createTestContext,
  integratorOf,
  pushMasterData,
  type Integrator,
  type TestContext,
} from '@wms/testing';

/** Section 4.5 of the interface: `Idempotency-Key` on a POST replays the first answer; another body is a 409. */
describe('interface 4.5: idempotency', () => {
  let ctx: TestContext;
  let integrator: Integrator;
  const order = (referenceNo: string, qtyOrdered: number) => ({
    warehouseCode: 'WH1',
    customerCode: 'CUST',
    requiredDate: '2030-03-01',
    shipTo: { name: 'Jane Doe', address: '1 Main St' },
    referenceNo,
    lines: [{ lineNo: 1, sku: 'PLAIN', uomCode: 'EA', qtyOrdered }],
  });

  beforeAll(async () => {
    ctx = await createTestContext('conformance-idempotency');
    const gateway = await ctx.startGateway();
    integrator = await integratorOf(gateway.url, 'IDEMPOTENCY');
    await pushMasterData(integrator);
  });
  afterAll(() => ctx.close());

  it('when the same key and body are sent again, the earlier answer is replayed with Idempotent-Replay: true and nothing is created twice', async () => {
    const headers = { 'Idempotency-Key': 'order-SO-4.5-1' };

    const first = await integrator.call('POST', '/orders', order('SO-4.5-1', 2), headers);
    const again = await integrator.call('POST', '/orders', order('SO-4.5-1', 2), headers);

    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replay')).toBeNull();
    expect(again.status).toBe(first.status);
    expect(again.headers.get('idempotent-replay')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(again.body.data).toEqual(a.object({ orderNo: a.string() }));
    expect((await integrator.call('GET', `/orders/${String(first.body.data.orderNo)}`)).status).toBe(200);
  });

  it('when the same key comes with a different body, it is 409 IDEMPOTENCY_KEY_MISMATCH in the error envelope', async () => {
    const headers = { 'Idempotency-Key': 'order-SO-4.5-2' };
    await integrator.call('POST', '/orders', order('SO-4.5-2', 2), headers);

    const other = await integrator.call('POST', '/orders', order('SO-4.5-2', 5), headers);

    expect(other.status).toBe(409);
    expect(other.body).toEqual(
      a.object({
        status: 'error',
        code: 'IDEMPOTENCY_KEY_MISMATCH',
        message: a.string(),
        requestId: expect.stringMatching(UUID_V4),
      }),
    );
  });

  it('when a POST carries no Idempotency-Key, each call is processed anew', async () => {
    const item = { sku: 'NO-KEY', name: 'Sent twice', baseUomCode: 'EA' };

    const first = await integrator.call('POST', '/items', item);
    const second = await integrator.call('POST', '/items', item);

    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.headers.get('idempotent-replay')).toBeNull();
    expect(second.body.requestId).not.toBe(first.body.requestId);
  });
});
