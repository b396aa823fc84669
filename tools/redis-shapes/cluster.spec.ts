import { keyNodes } from '@wms/platform';
import {
  createTestContext,
  startRedisCluster,
  startWebhookReceiver,
  type PrivateCluster,
  type TestContext,
  type TestGateway,
  type WebhookReceiver,
} from '@wms/testing';
import {
  LONG_KEY_CACHE,
  bulkJobsComplete,
  rateLimitExactAcrossGateways,
  revocationReachesBoth,
  webhooksDelivered,
} from './scenarios.js';

// The whole service on a private three-master Redis Cluster (REDIS_CLUSTER_NODES).
describe('on a Redis Cluster of three masters', () => {
  let cluster: PrivateCluster;
  let ctx: TestContext;
  let receiver: WebhookReceiver;
  let gatewayA: TestGateway;
  let gatewayB: TestGateway;

  beforeAll(async () => {
    cluster = await startRedisCluster(3);
    ctx = await createTestContext('redis-cluster', {
      REDIS_CLUSTER_NODES: cluster.nodeList,
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    });
    receiver = await startWebhookReceiver();
    gatewayA = await ctx.startGateway({}, LONG_KEY_CACHE);
    gatewayB = await ctx.startGateway({}, LONG_KEY_CACHE);
    await ctx.startIngestWorker();
  }, 90_000);
  afterAll(async () => {
    await receiver?.close();
    await ctx?.close();
    await cluster?.stop();
  });

  it('bulk jobs complete through the ingest queue', () => bulkJobsComplete(ctx, gatewayA));

  it('webhooks are delivered through the delivery queue', () => webhooksDelivered(ctx, receiver, '/cluster'));

  it('the rate limit stays exact across two gateways', () => rateLimitExactAcrossGateways(ctx, gatewayA, gatewayB));

  it('a revocation on one gateway reaches the other over pub/sub', () =>
    revocationReachesBoth(ctx, gatewayA, gatewayB));

  it("the queues' keys carry the hash-tagged prefix and all live on one node", async () => {
    const tagged = `{${ctx.config.redisKeyPrefix}}:`;
    const holders: number[] = [];
    for (const [index, node] of keyNodes(ctx.runtime.redis).entries()) {
      const [, keys] = await node.scan('0', 'MATCH', `${tagged}*`, 'COUNT', 10_000);
      if (keys.length) holders.push(index);
    }

    expect(holders).toHaveLength(1);
  });
});
