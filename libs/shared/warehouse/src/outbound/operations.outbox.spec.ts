import { QueryTypes, type Transaction } from 'sequelize';
import type { WriteContext } from '../writes/index.js';
import { createRedis } from '@wms/platform';
import {
  createWebhookDeliveryQueue,
  deliveryIdsOf,
  deliveryJobId,
  WEBHOOK_DELIVERY_JOB,
  type WebhookDeliveryQueue,
} from '@wms/webhooks';
import {
  createMasterData,
  createSubscription,
  createTenantWithWarehouse,
  createTestContext,
  drainRelay,
  relayOver,
  waitFor,
  type TestContext,
} from '@wms/testing';

/**
 * The operations' events travel through the transactional outbox: while Redis is unreachable, orders
 * keep changing and their events wait in PostgreSQL; once Redis is back, every event reaches the
 * delivery queue exactly once per matching subscription, even with two relays racing.
 */
describe('operations events through the outbox', () => {
  let ctx: TestContext;
  let queue: WebhookDeliveryQueue;

  beforeAll(async () => {
    ctx = await createTestContext('ops-outbox', { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
    queue = createWebhookDeliveryQueue(ctx.runtime.redis, ctx.config.redisKeyPrefix, 3);
  });
  afterAll(async () => {
    await queue.close();
    await ctx.close();
  });

  const deliveriesOf = (subscriptionIds: string[]) =>
    ctx.runtime.db.sequelize.query<{
      id: string;
      eventId: string;
      subscriptionId: string;
      generation: number;
      event: string;
      enqueuedAt: Date | null;
    }>(
      `SELECT d.id, d.event_id AS "eventId", d.subscription_id AS "subscriptionId", d.generation, e.event, d.enqueued_at AS "enqueuedAt"
       FROM webhook_deliveries d JOIN events e ON e.id = d.event_id WHERE d.subscription_id = ANY($1::uuid[]) ORDER BY e.seq`,
      { bind: [subscriptionIds], type: QueryTypes.SELECT },
    );

  it('when Redis is unavailable while orders change, every event waits and then reaches the queue exactly once per subscription', async () => {
    const { tenant } = await createTenantWithWarehouse(ctx, undefined, 'WH1');
    const tenantId = tenant.id;
    await createMasterData(ctx, tenantId, {
      items: [{ sku: 'SKU' }],
      partners: [{ code: 'CUST', type: 'customer' }],
      locations: [{ warehouseCode: 'WH1', code: 'A-01' }],
    });
    const everything = await createSubscription(ctx, { url: 'http://127.0.0.1:9/all', tenantId });
    const orderFlow = await createSubscription(ctx, {
      url: 'http://127.0.0.1:9/orders',
      events: ['order.allocated', 'order.shipped'],
      tenantId,
    });
    const deadRedis = createRedis({ redisUrl: 'redis://127.0.0.1:1' }, 'producer', 'dead');
    const deadQueue = createWebhookDeliveryQueue(deadRedis, ctx.config.redisKeyPrefix, 3);
    deadQueue.on('error', () => undefined);
    const downRelay = relayOver(ctx, deadQueue, 300);
    downRelay.start();
    const run = <T>(work: (context: WriteContext) => Promise<T>) =>
      ctx.runtime.db.sequelize.transaction((transaction: Transaction) => work({ tenantId, transaction }));

    // Arrange and act: the whole life of one order, a cancelled one, an adjustment and a count, with Redis away.
    await run((context) =>
      ctx.services.adjustments.adjust(context, {
        warehouseCode: 'WH1',
        locationCode: 'A-01',
        sku: 'SKU',
        qtyDelta: 10,
        reason: 'opening stock',
      }),
    );
    const orderNos: string[] = [];
    for (const referenceNo of ['OUTBOX-1', 'OUTBOX-2']) {
      const [outcome] = await run((context) =>
        ctx.services.orders.createOrders(context, [
          {
            warehouseCode: 'WH1',
            customerCode: 'CUST',
            priority: 0,
            referenceNo,
            lines: [{ lineNo: 1, sku: 'SKU', uomCode: 'EA', qtyOrdered: 3 }],
          },
        ]),
      );
      orderNos.push(outcome!.ok ? (outcome.data.orderNo as string) : '');
    }
    const [shippedNo, cancelledNo] = orderNos as [string, string];
    await run((context) => ctx.services.allocation.allocate(context, shippedNo));
    await run((context) => ctx.services.picking.release(context, shippedNo));
    const [task] = (await ctx.services.orders.inquire(tenantId, shippedNo)).pickTasks as { id: string }[];
    await run((context) => ctx.services.picking.confirm(context, task!.id, {}));
    await run((context) => ctx.services.shipping.ship(context, shippedNo, { trackingNo: 'TRK-1' }));
    await run((context) => ctx.services.allocation.allocate(context, cancelledNo));
    await run((context) => ctx.services.orders.cancel(context, cancelledNo));
    await run((context) =>
      ctx.services.cycleCounts.record(context, {
        warehouseCode: 'WH1',
        locationCode: 'A-01',
        sku: 'SKU',
        countedQty: 6,
      }),
    );

    const expectedEvents = [
      'stock.adjusted',
      'order.allocated',
      'order.released',
      'order.shipped',
      'order.allocated',
      'order.cancelled',
      'stock.adjusted',
      'cyclecount.variance',
    ];
    await waitFor(
      async () => (await deliveriesOf([everything.id])).length === expectedEvents.length,
      15_000,
      'fan-out without Redis',
    );
    await downRelay.stop();
    deadRedis.disconnect();
    const waiting = await deliveriesOf([everything.id, orderFlow.id]);
    expect(waiting.every((row) => row.enqueuedAt === null)).toBe(true);

    // Redis is back: two relays race for the same rows, then a further pass finds nothing left.
    await Promise.all([relayOver(ctx, queue), relayOver(ctx, queue)].map((relay) => drainRelay(relay)));
    const lastPass = await relayOver(ctx, queue).runOnce();

    const rows = await deliveriesOf([everything.id, orderFlow.id]);
    expect(rows.filter((row) => row.subscriptionId === everything.id).map((row) => row.event)).toEqual(expectedEvents);
    expect(rows.filter((row) => row.subscriptionId === orderFlow.id).map((row) => row.event)).toEqual([
      'order.allocated',
      'order.shipped',
      'order.allocated',
    ]);
    expect(rows.every((row) => row.enqueuedAt !== null)).toBe(true);
    expect(lastPass).toEqual({ events: 0, deliveries: 0, enqueued: 0 });
    const jobs = await queue.getJobs(['waiting', 'delayed', 'active', 'completed', 'failed', 'prioritized']);
    // Each delivery is in exactly one job (a batch job, or one of its own named by its run).
    const queued = jobs.flatMap((job) => deliveryIdsOf(job.data)).filter((id) => rows.some((row) => row.id === id));
    expect(queued.sort()).toEqual(rows.map((row) => row.id).sort());
    const lone = jobs.filter(
      (job) => job.name === WEBHOOK_DELIVERY_JOB && rows.some((row) => row.id === deliveryIdsOf(job.data)[0]),
    );
    for (const job of lone)
      expect(job.id).toBe(deliveryJobId(rows.find((row) => row.id === deliveryIdsOf(job.data)[0])!));
    await deadQueue.close().catch(() => undefined);
  });
});
