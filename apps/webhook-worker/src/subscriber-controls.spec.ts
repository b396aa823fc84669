import type { AppendEventInput } from '@wms/events';
import {
  appendEvents,
  busiestWindow,
  createSubscription,
  createTenantWithWarehouse,
  createTestContext,
  startAppProcess,
  startTestWebhookWorker,
  startWebhookReceiver,
  waitFor,
  type TestContext,
  type WebhookReceiver,
} from '@wms/testing';

/** The burst a limited and an unlimited subscription receive (1,000: 20 s at 50/s). */
const BURST = 1_000;
const fastRetries = { backoffBaseMs: 200, maxAttempts: 4, timeoutMs: 10_000 };

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

/** Order events of one order number, numbered in `step`. */
function orderEvent(tenantId: string, orderNo: string, step: number): AppendEventInput {
  return {
    tenantId,
    event: 'order.cancelled',
    data: { orderNo, referenceNo: `step-${step}`, previousStatus: 'open' },
  };
}

describe('subscriber controls', () => {
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

    // At least once: an attempt that timed out on a busy machine may have reached the receiver and be sent again.
    const received = [
      ...new Set(receiver.requestsTo('/filtered').map((request) => JSON.parse(request.body).data.sku as string)),
    ];
    expect(expected.length).toBeGreaterThan(100);
    expect(expected.length).toBeLessThan(900);
    expect(received.sort()).toEqual(expected.sort());
    expect(await deliveryCount(filtered.id)).toBe(expected.length);
  }, 90_000);

  it('when a burst of 1,000 events meets a subscription limited to 50/s and two worker processes, it receives them at 50/s while an unlimited one receives its 1,000 without waiting', async () => {
    const { tenant } = await createTenantWithWarehouse(ctx);
    const limited = await createSubscription(ctx, {
      url: receiver.urlFor('/limited'),
      tenantId: tenant.id,
      maxDeliveriesPerSecond: 50,
    });
    await createSubscription(ctx, { url: receiver.urlFor('/unlimited'), tenantId: tenant.id });
    const env = { ...ctx.env, WEBHOOK_ALLOW_PRIVATE_URLS: 'true' };
    const workers = await Promise.all([startAppProcess('webhook-worker', env), startAppProcess('webhook-worker', env)]);
    try {
      const appendedAt = Date.now();
      await appendEvents(
        ctx,
        Array.from({ length: BURST }, (_v, index) => adjustment(tenant.id, index)),
      );
      const unlimited = await receiver.waitForRequests('/unlimited', BURST, 60_000);
      const limitedDone = await receiver.waitForRequests('/limited', BURST, 90_000);

      const limitedTimes = limitedDone.map((request) => request.receivedAt).sort((a, b) => a - b);
      const unlimitedLast = Math.max(...unlimited.map((request) => request.receivedAt));
      const limitedSpanMs = limitedTimes.at(-1)! - limitedTimes[0]!;
      // At most 50 sends in any second: 1,000 take more than 19 seconds.
      expect(limitedSpanMs).toBeGreaterThan(((BURST - 1) / 50) * 1_000 - 100);
      // Read at the receiver: a send counts against the rate from its admission until a second after its
      // answer, so whatever a busy worker held back arrives within the limit too. The receiver runs in this
      // test's process, which shares two cores with the whole suite: a stall of its event loop stamps the
      // requests it held back together, so one second may count up to twice the rate; the pace over the
      // whole burst (next line) holds the limit to 5 %.
      expect(busiestWindow(limitedTimes, 1_000)).toBeLessThanOrEqual(50 * 2);
      expect((limitedTimes.length - 1) / (limitedSpanMs / 1_000)).toBeLessThanOrEqual(50 * 1.05);
      // The unlimited subscription did not wait for the limited one's pace.
      expect(unlimitedLast - appendedAt).toBeLessThan(limitedTimes.at(-1)! - appendedAt);
      expect(limited.maxDeliveriesPerSecond).toBe(50);
    } finally {
      await Promise.all(workers.map((worker) => worker.kill('SIGTERM')));
    }
  }, 150_000);

  it("when an ordered subscription's receiver fails the 2nd of 5 events of one order, it receives the 5 in sequence order, and another order's events are not held back", async () => {
    const worker = startTestWebhookWorker(ctx, { webhook: { ...fastRetries, backoffBaseMs: 1_000, maxAttempts: 5 } });
    const { tenant } = await createTenantWithWarehouse(ctx);
    await createSubscription(ctx, { url: receiver.urlFor('/ordered'), tenantId: tenant.id, ordered: true });
    let failedOnce = false;
    receiver.on('/ordered', (request) => {
      const body = JSON.parse(request.body) as { data: { orderNo: string; referenceNo: string } };
      if (body.data.orderNo === 'SO-HELD' && body.data.referenceNo === 'step-2' && !failedOnce) {
        failedOnce = true;
        return { status: 503, headers: { 'retry-after': '2' } };
      }
      return { status: 200 };
    });

    // The held order's five events, each in its own transaction, with the other order's between them.
    for (let step = 1; step <= 5; step += 1) {
      await appendEvents(ctx, [orderEvent(tenant.id, 'SO-HELD', step), orderEvent(tenant.id, 'SO-FREE', step)]);
    }
    const received = await receiver.waitForRequests('/ordered', 11, 30_000);
    await worker.close();

    const of = (orderNo: string) =>
      received
        .map((request) => ({
          at: request.receivedAt,
          ...(JSON.parse(request.body) as { sequence: number; data: { orderNo: string; referenceNo: string } }),
        }))
        .filter((body) => body.data.orderNo === orderNo);
    const held = of('SO-HELD');
    const free = of('SO-FREE');
    // The failed attempt, then the five in order.
    expect(held.map((body) => body.data.referenceNo)).toEqual([
      'step-1',
      'step-2',
      'step-2',
      'step-3',
      'step-4',
      'step-5',
    ]);
    expect(held.map((body) => body.sequence)).toEqual([1, 2, 2, 3, 4, 5]);
    expect(free.map((body) => body.sequence)).toEqual([1, 2, 3, 4, 5]);
    // The other order was done while the held one waited out its retry (Retry-After: 2 s).
    const retriedAt = held[2]!.at;
    expect(Math.max(...free.map((body) => body.at))).toBeLessThan(retriedAt);
  }, 90_000);
});
