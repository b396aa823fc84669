import { NEWEST_API_VERSION, createRedis, renderForVersion } from '@wms/platform';
import {
  WEBHOOK_DELIVERY_BATCH_JOB,
  WEBHOOK_DELIVERY_JOB,
  createWebhookDeliveryQueue,
  deliveryIdsOf,
  deliveryJobId,
  type WebhookDeliveryQueue,
} from '@wms/webhooks';
import {
  appendEvents,
  createSubscription,
  createTestContext,
  createTenantWithWarehouse,
  drainRelay,
  relayOver,
  sampleEvents,
  waitFor,
  type TestContext,
} from '@wms/testing';

describe('events outbox and relay', () => {
  let ctx: TestContext;
  let queue: WebhookDeliveryQueue;

  beforeAll(async () => {
    ctx = await createTestContext('outbox', { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
    queue = createWebhookDeliveryQueue(ctx.runtime.redis, ctx.config.redisKeyPrefix, 3);
  });
  afterAll(async () => {
    await queue.close();
    await ctx.close();
  });

  async function deliveriesOf(subscriptionId: string) {
    const [rows] = (await ctx.runtime.db.sequelize.query(
      `SELECT d.event_id AS "eventId", e.event, e.tenant_id AS "tenantId", d.enqueued_at AS "enqueuedAt"
         FROM webhook_deliveries d JOIN events e ON e.id = d.event_id WHERE d.subscription_id = :subscriptionId`,
      { replacements: { subscriptionId } },
    )) as [Array<{ eventId: string; event: string; tenantId: string; enqueuedAt: Date | null }>, unknown];
    return rows;
  }

  it('when events are appended, each reaches the subscriptions whose tenant and event filters match, and * matches every event', async () => {
    const { tenant: t1 } = await createTenantWithWarehouse(ctx);
    const { tenant: t2 } = await createTenantWithWarehouse(ctx);
    const allOfT1 = await createSubscription(ctx, { url: 'http://127.0.0.1:9/a', events: ['*'], tenantId: t1.id });
    const someOfAll = await createSubscription(ctx, {
      url: 'http://127.0.0.1:9/b',
      events: ['order.shipped', 'asn.completed'],
    });
    const allOfT2 = await createSubscription(ctx, { url: 'http://127.0.0.1:9/c', events: ['*'], tenantId: t2.id });
    const disabled = await createSubscription(ctx, { url: 'http://127.0.0.1:9/d', events: ['*'] });
    await ctx.services.webhooks.update(disabled.id, { active: false }, { tenantId: null });

    await appendEvents(ctx, sampleEvents(t1.id));
    await appendEvents(
      ctx,
      sampleEvents(t2.id).filter((event) => event.event === 'order.shipped'),
    );
    await drainRelay(relayOver(ctx, queue));

    const ofAllT1 = await deliveriesOf(allOfT1.id);
    expect(ofAllT1).toHaveLength(sampleEvents(t1.id).length);
    expect(new Set(ofAllT1.map((row) => row.tenantId))).toEqual(new Set([t1.id]));
    const ofSome = await deliveriesOf(someOfAll.id);
    expect(ofSome.map((row) => `${row.event}@${row.tenantId}`).sort()).toEqual(
      [`asn.completed@${t1.id}`, `order.shipped@${t1.id}`, `order.shipped@${t2.id}`].sort(),
    );
    expect((await deliveriesOf(allOfT2.id)).map((row) => row.event)).toEqual(['order.shipped']);
    expect(await deliveriesOf(disabled.id)).toEqual([]);
  });

  it('when a transaction that appended an event rolls back, the event does not exist and nothing is queued for it', async () => {
    const { tenant } = await createTenantWithWarehouse(ctx);
    const subscription = await createSubscription(ctx, { url: 'http://127.0.0.1:9/rollback', tenantId: tenant.id });

    await expect(
      ctx.runtime.db.sequelize.transaction(async (transaction) => {
        await ctx.services.events.append(transaction, sampleEvents(tenant.id)[1]!);
        throw new Error('the operation failed after appending');
      }),
    ).rejects.toThrow('the operation failed');
    await drainRelay(relayOver(ctx, queue));

    expect(await deliveriesOf(subscription.id)).toEqual([]);
    expect((await ctx.services.events.listForTenant(tenant.id, null)).events).toEqual([]);
  });

  it('when Redis is unavailable while events are appended, they wait in PostgreSQL and then reach the queue exactly once per subscription', async () => {
    const { tenant } = await createTenantWithWarehouse(ctx);
    const everything = await createSubscription(ctx, { url: 'http://127.0.0.1:9/all', tenantId: tenant.id });
    const shipped = await createSubscription(ctx, {
      url: 'http://127.0.0.1:9/shipped',
      events: ['order.shipped'],
      tenantId: tenant.id,
    });
    const deadRedis = createRedis({ redisUrl: 'redis://127.0.0.1:1' }, 'producer', 'dead');
    const deadQueue = createWebhookDeliveryQueue(deadRedis, ctx.config.redisKeyPrefix, 3);
    deadQueue.on('error', () => undefined);
    const downRelay = relayOver(ctx, deadQueue, 300);
    downRelay.start();

    // Arrange: events keep coming while the relay cannot reach Redis.
    for (const event of sampleEvents(tenant.id)) await appendEvents(ctx, [event]);
    const events = sampleEvents(tenant.id).length;
    await waitFor(async () => (await deliveriesOf(everything.id)).length === events, 15_000, 'fan-out without Redis');
    await downRelay.stop();
    deadRedis.disconnect();
    expect((await deliveriesOf(everything.id)).every((row) => row.enqueuedAt === null)).toBe(true);

    // Act: Redis is back; two relays (two scaled workers) race for the same rows.
    const relays = [relayOver(ctx, queue), relayOver(ctx, queue)];
    await Promise.all(relays.map((relay) => drainRelay(relay)));

    // Assert: one job per (event, subscription), no more.
    const expected = [...(await deliveriesOf(everything.id)), ...(await deliveriesOf(shipped.id))];
    expect(expected).toHaveLength(events + 1);
    expect(expected.every((row) => row.enqueuedAt !== null)).toBe(true);
    const jobs = await queue.getJobs(['waiting', 'delayed', 'active', 'completed', 'failed', 'prioritized']);
    const [rows] = (await ctx.runtime.db.sequelize.query(
      'SELECT id, event_id AS "eventId", subscription_id AS "subscriptionId", generation FROM webhook_deliveries WHERE subscription_id IN (:ids)',
      { replacements: { ids: [everything.id, shipped.id] } },
    )) as [Array<{ id: string; eventId: string; subscriptionId: string; generation: number }>, unknown];
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

  it('when Redis loses the jobs of pending deliveries (a failover, a restart without data, FLUSHALL), a recheck queues them again, once, and leaves finished deliveries alone', async () => {
    const { tenant } = await createTenantWithWarehouse(ctx);
    const subscription = await createSubscription(ctx, { url: 'http://127.0.0.1:9/lost', tenantId: tenant.id });
    const relay = relayOver(ctx, queue);
    await appendEvents(ctx, sampleEvents(tenant.id).slice(0, 3));
    await drainRelay(relay);
    const [rows] = (await ctx.runtime.db.sequelize.query(
      `SELECT id, event_id AS "eventId", subscription_id AS "subscriptionId", generation FROM webhook_deliveries
        WHERE subscription_id = :id ORDER BY created_at, id`,
      { replacements: { id: subscription.id } },
    )) as [Array<{ id: string; eventId: string; subscriptionId: string; generation: number }>, unknown];
    expect(rows).toHaveLength(3);
    const [lost, finished, kept] = rows.map((row) => ({ ...row, jobId: deliveryJobId(row) }));
    // The relay queued the three as one batch job; while Redis holds it, none of them is lost.
    const [batch] = (await queue.getJobs(['waiting'])).filter((job) =>
      deliveryIdsOf(job.data).some((id) => id === lost!.id),
    );
    expect(batch?.name).toBe(WEBHOOK_DELIVERY_BATCH_JOB);
    expect((await relay.recheck(true)).lost).toBe(0);
    // One delivery goes on in a job of its own (as a retry would), one has succeeded; then Redis forgets the batch.
    await queue.add(
      WEBHOOK_DELIVERY_JOB,
      { deliveryId: kept!.id, subscriptionId: subscription.id },
      { jobId: kept!.jobId },
    );
    await ctx.runtime.db.sequelize.query("UPDATE webhook_deliveries SET status = 'succeeded' WHERE id = :id", {
      replacements: { id: finished!.id },
    });
    await batch!.remove();

    // A routine recheck only looks at deliveries queued more than its interval ago: these are fresh.
    expect((await relay.recheck(false)).lost).toBe(0);
    expect(await queue.getJobState(lost!.jobId)).toBe('unknown');

    // After a reconnection every pending delivery is looked up.
    const pass = await relay.recheck(true);
    expect(pass.checked).toBeGreaterThanOrEqual(2);
    expect(pass.lost).toBeGreaterThanOrEqual(1);
    expect(await queue.getJobState(lost!.jobId)).toBe('waiting');
    expect((await queue.getJob(lost!.jobId))?.data).toEqual({ deliveryId: lost!.id, subscriptionId: subscription.id });
    expect(await queue.getJobState(finished!.jobId)).toBe('unknown');
    expect(await queue.getJobState(kept!.jobId)).toBe('waiting');

    // Looked up again, nothing is added twice.
    await relay.recheck(true);
    const jobs = await queue.getJobs(['waiting', 'prioritized', 'delayed', 'active']);
    const ours = jobs.filter((job) => rows.some((row) => row.id === deliveryIdsOf(job.data)[0])).map((job) => job.id);
    expect(ours.sort()).toEqual([lost!.jobId, kept!.jobId].sort());
  });

  it('when an event commits after a later one, the feed still lists it after the cursor already handed out', async () => {
    const { tenant } = await createTenantWithWarehouse(ctx);
    // Two documents (an ASN, an order): writers of one document wait for each other (its sequence counter).
    const [early, , late] = sampleEvents(tenant.id);
    const relay = relayOver(ctx, queue);
    const slow = await ctx.runtime.db.sequelize.transaction();
    const slowEvent = await ctx.services.events.append(slow, early!);
    const [fastEvent] = await appendEvents(ctx, [late!]);
    await relay.fanOut();
    const firstPage = await ctx.services.events.listForTenant(tenant.id, null);

    await slow.commit();
    await relay.fanOut();
    const secondPage = await ctx.services.events.listForTenant(tenant.id, firstPage.nextCursor);

    expect(firstPage.events.map((event) => event.id)).toEqual([fastEvent!.id]);
    expect(secondPage.events.map((event) => event.id)).toEqual([slowEvent.id]);
    expect(secondPage.events[0]).toEqual({
      id: slowEvent.id,
      event: 'asn.received',
      timestamp: slowEvent.occurredAt.toISOString(),
      sequence: 1,
      // The feed reads quantities exactly, as decimal strings (the newest version's shape).
      data: renderForVersion({ ...early!.data, tenantId: tenant.id }, NEWEST_API_VERSION),
    });
  });

  it('when the feed is read page by page, it lists the tenant events oldest first, only that tenant, and keeps the cursor when nothing is new', async () => {
    const { tenant } = await createTenantWithWarehouse(ctx);
    const { tenant: other } = await createTenantWithWarehouse(ctx);
    const appended = await appendEvents(ctx, sampleEvents(tenant.id));
    await appendEvents(ctx, sampleEvents(other.id));
    await relayOver(ctx, queue).fanOut();

    const first = await ctx.services.events.listForTenant(tenant.id, null, 6);
    const second = await ctx.services.events.listForTenant(tenant.id, first.nextCursor, 6);
    const third = await ctx.services.events.listForTenant(tenant.id, second.nextCursor, 5);

    expect([...first.events, ...second.events].map((event) => event.id)).toEqual(appended.map((event) => event.id));
    expect(third).toEqual({ events: [], nextCursor: second.nextCursor });
    await expect(ctx.services.events.listForTenant(tenant.id, null, 501)).rejects.toMatchObject({
      status: 400,
      code: 'VALIDATION_FAILED',
    });
    await expect(ctx.services.events.listForTenant(tenant.id, 'abc')).rejects.toMatchObject({ status: 400 });
  });
});
