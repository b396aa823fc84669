import { createApiKey, createTestContext, type TestContext } from '@wms/testing';
import { ApiKeyRequestLog, type RequestLogEntry } from '../index.js';

describe('API-key request log', () => {
  let ctx: TestContext;
  let log: ApiKeyRequestLog;

  beforeAll(async () => {
    ctx = await createTestContext('request-log');
    log = new ApiKeyRequestLog(ctx.services.apiKeys.repository, ctx.runtime.logger);
  });
  afterAll(async () => {
    await log.close();
    await ctx.close();
  });

  const entry = (apiKeyId: string, createdAt = new Date()): RequestLogEntry => ({
    apiKeyId,
    endpoint: '/api/v1/integration/v1/items',
    method: 'POST',
    ip: '2001:db8::1',
    origin: null,
    statusCode: 200,
    responseTimeMs: 3.5,
    createdAt,
  });

  const count = async (apiKeyId: string) => {
    const [rows] = (await ctx.runtime.db.sequelize.query(
      'SELECT count(*)::int AS n FROM api_key_request_logs WHERE api_key_id = :apiKeyId',
      {
        replacements: { apiKeyId },
      },
    )) as [Array<{ n: number }>, unknown];
    return rows[0]!.n;
  };

  it('when records are buffered, nothing is written until a flush, which writes them all at once', async () => {
    const { id } = await createApiKey(ctx);
    for (let i = 0; i < 25; i++) log.record(entry(id));
    const before = await count(id);

    await log.flush();

    expect(before).toBe(0);
    expect(await count(id)).toBe(25);
  });

  it('when a key is used again within a minute, lastUsedAt is not written again', async () => {
    const { id } = await createApiKey(ctx);
    log.record(entry(id, new Date(Date.now() - 5_000)));
    await log.flush();
    const first = await ctx.services.apiKeys.repository.findById(id);

    log.record(entry(id));
    await log.flush();
    const second = await ctx.services.apiKeys.repository.findById(id);

    expect(first!.lastUsedAt).not.toBeNull();
    expect(second!.lastUsedAt!.getTime()).toBe(first!.lastUsedAt!.getTime());
  });

  it('when records are older than 90 days, the purge deletes them and keeps the rest', async () => {
    const { id } = await createApiKey(ctx);
    log.record(entry(id, new Date(Date.now() - 91 * 86_400_000)));
    log.record(entry(id, new Date(Date.now() - 89 * 86_400_000)));
    log.record(entry(id));
    await log.flush();

    const deleted = await log.purge();

    expect(deleted).toBeGreaterThanOrEqual(1);
    expect(await count(id)).toBe(2);
  });
});
