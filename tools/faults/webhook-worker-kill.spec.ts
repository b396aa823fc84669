import { QueryTypes } from 'sequelize';
import {
  appendEvents,
  createSubscription,
  createTestContext,
  defaultTenantId,
  sampleEvents,
  startAppProcess,
  startWebhookReceiver,
  waitFor,
  type TestContext,
  type WebhookReceiver,
} from '@wms/testing';

/**
 * The webhook worker killed with kill -9 while its deliveries are in the middle of their attempts (the
 * subscriber has not answered yet): no shutdown hook runs, its jobs stay locked. A new worker process takes
 * them up once their locks expire, and every event is delivered at least once.
 */
describe('webhook worker killed mid-delivery', () => {
  let ctx: TestContext;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    ctx = await createTestContext('fault-webhook-kill', { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await ctx?.close();
  });

  it('when the worker is killed while attempts wait on the subscriber, a new worker delivers every event', async () => {
    const tenantId = await defaultTenantId(ctx);
    const subscription = await createSubscription(ctx, { url: receiver.urlFor('/killed'), tenantId });
    let killed = false;
    // Until the kill, the subscriber holds every request open: the attempts are in flight when the worker dies.
    receiver.on('/killed', () => (killed ? {} : { hang: true }));
    const env = { ...ctx.env, WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_TIMEOUT_MS: '60000' };

    const first = await startAppProcess('webhook-worker', env);
    const events = [...sampleEvents(tenantId), ...sampleEvents(tenantId)];
    const appended = (await appendEvents(ctx, events)).map((event) => event.id);
    await receiver.waitForRequests('/killed', appended.length, 30_000).catch((error: unknown) => {
      throw new Error(`${String(error)}\n${first.output()}`);
    });

    await first.kill();
    killed = true;
    const second = await startAppProcess('webhook-worker', env);
    try {
      await waitFor(
        async () => {
          const rows = await ctx.runtime.db.sequelize.query<{ pending: number }>(
            `SELECT count(*) FILTER (WHERE status <> 'succeeded')::int AS pending
             FROM webhook_deliveries WHERE subscription_id = $1`,
            { bind: [subscription.id], type: QueryTypes.SELECT },
          );
          return rows[0]!.pending === 0;
        },
        60_000,
        'every delivery succeeded after the kill',
      ).catch((error: unknown) => {
        throw new Error(`${String(error)}\n${second.output()}`);
      });
    } finally {
      await second.kill('SIGTERM');
    }

    const answered = receiver.requestsTo('/killed').slice(appended.length);
    const delivered = new Set(answered.map((entry) => String(entry.headers['webhook-id'])));
    expect(appended.filter((id) => !delivered.has(id))).toEqual([]);
    const deliveries = await ctx.services.webhooks.listDeliveries(subscription.id, { tenantId: null });
    expect(deliveries).toHaveLength(appended.length);
  }, 120_000);
});
