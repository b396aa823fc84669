import type { AppendEventInput } from '@wms/shared';
import {
  appendEvents,
  createSubscription,
  createTenantWithWarehouse,
  createTestContext,
  startTestWebhookWorker,
  startWebhookReceiver,
  waitFor,
  type TestContext,
  type WebhookReceiver,
} from '@wms/testing';

const fastRetries = { backoffBaseMs: 200, maxAttempts: 4, timeoutMs: 2_000 };

/** A stock adjustment of one of three warehouses, with a delta between -20 and 20. */
function adjustment(tenantId: string, index: number): AppendEventInput {
  const qtyDelta = ((index * 7) % 41) - 20;
  return {
    tenantId,
    event: 'stock.adjusted',
    data: {
      warehouseCode: ['MAIN', 'EAST', 'WEST'][index % 3]!,
      locationCode: `A-${index % 5}`,
      sku: `SKU-${index}`,
      lotNo: null,
      qtyDelta,
      qtyOnHand: 100 + qtyDelta,
      reason: 'count',
    },
  };
}

describe('subscriber controls: filters', () => {
  let ctx: TestContext;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    ctx = await createTestContext('webhook-subscriber-controls', { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await ctx.close();
  });

  async function deliveryCount(subscriptionId: string): Promise<number> {
    const [[row]] = (await ctx.runtime.db.sequelize.query(
      'SELECT count(*)::int AS count FROM webhook_deliveries WHERE subscription_id = :subscriptionId',
      { replacements: { subscriptionId } },
    )) as [Array<{ count: number }>, unknown];
    return row!.count;
  }

  it('when 1,000 mixed events occur, a filtered subscription receives exactly the matching ones and no others get a delivery row', async () => {
    const worker = startTestWebhookWorker(ctx, { webhook: fastRetries });
    const { tenant } = await createTenantWithWarehouse(ctx);
    const filter = {
      warehouseCode: { $in: ['MAIN', 'EAST'] },
      $or: [{ qtyDelta: { $gte: 10 } }, { qtyDelta: { $lte: -10 } }],
    };
    const filtered = await createSubscription(ctx, { url: receiver.urlFor('/filtered'), tenantId: tenant.id, filter });
    const everything = await createSubscription(ctx, { url: receiver.urlFor('/everything'), tenantId: tenant.id });
    const events = Array.from({ length: 1_000 }, (_v, index) => adjustment(tenant.id, index));
    const expected = events
      .filter((input) => {
        const data = input.data as { warehouseCode: string; qtyDelta: number };
        return ['MAIN', 'EAST'].includes(data.warehouseCode) && Math.abs(data.qtyDelta) >= 10;
      })
      .map((input) => (input.data as { sku: string }).sku);

    // In several transactions, so the fan-out meets them in more than one pass.
    for (let at = 0; at < events.length; at += 100) await appendEvents(ctx, events.slice(at, at + 100));
    await receiver.waitForRequests('/everything', 1_000, 60_000);
    await receiver.waitForRequests('/filtered', expected.length, 30_000);
    await waitFor(async () => (await deliveryCount(everything.id)) === 1_000);
    await worker.close();

    const received = receiver.requestsTo('/filtered').map((request) => JSON.parse(request.body).data.sku as string);
    expect(expected.length).toBeGreaterThan(100);
    expect(expected.length).toBeLessThan(900);
    expect(received.sort()).toEqual(expected.sort());
    expect(await deliveryCount(filtered.id)).toBe(expected.length);
  }, 90_000);
});
