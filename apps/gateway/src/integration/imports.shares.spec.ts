import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { UPLOAD_LEASE_MS } from '@wms/ingest';
import { redisKey } from '@wms/platform';
import {
  createApiKey,
  createTenantWithWarehouse,
  createTestContext,
  holdUpload,
  upload,
  waitFor,
  type HeldUpload,
  type TestContext,
} from '@wms/testing';

const IMPORTS = '/api/v1/integration/v1/imports';
/** Far above what an answer before the body takes; far below what waiting for the held uploads would. */
const ANSWER_WITHIN_MS = 5_000;

const itemLine = (sku: string) => JSON.stringify({ sku, name: `Item ${sku}`, baseUomCode: 'EA' });
const ndjson = { 'content-type': 'application/x-ndjson' };

/** How a gateway's upload slots are shared: by tenant across gateways, and only with uploads that keep pace. */
describe('upload slots shared by tenant, and a minimum upload rate', () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await createTestContext('imports-shares');
  });
  afterAll(() => ctx.close());

  const newTenant = async () => (await createTenantWithWarehouse(ctx)).tenant.id;
  const newKey = async (tenantId: string) => (await createApiKey(ctx, { tenantId })).rawKey;
  async function count(sql: string): Promise<number> {
    const [rows] = (await ctx.runtime.db.sequelize.query(sql)) as [{ n: number }[], unknown];
    return rows[0]!.n;
  }
  const stored = async () => ({
    rows: await count('SELECT count(*)::int AS n FROM import_rows'),
    imports: await count('SELECT count(*)::int AS n FROM imports'),
  });

  /** Starts an upload and sends its first line: it holds its slot until ended. */
  async function openUpload(url: string, key: string): Promise<HeldUpload> {
    const held = holdUpload(url, `${IMPORTS}?entity=items`, { 'x-api-key': key, ...ndjson });
    await held.write(`${itemLine(`HELD-${randomUUID()}`)}\n`);
    return held;
  }
  /** A line written is not yet a slot taken: waits until the gateways hold `count` leases of the tenant. */
  async function leasesHeld(tenantId: string, count: number): Promise<void> {
    const leases = redisKey(ctx.env.REDIS_KEY_PREFIX!, 'upload-slots', tenantId);
    await waitFor(
      () => ctx.runtime.redis.zcard(leases),
      (held) => held === count,
      10_000,
      `${count} upload lease(s) of the tenant held across gateways`,
    );
  }
  const uploadOne = (url: string, key: string, sku: string) =>
    upload(url, `${IMPORTS}?entity=items`, { 'x-api-key': key, ...ndjson }, `${itemLine(sku)}\n`);

  it("a tenant holding its share across two gateways gets 503 UPLOADS_BUSY before its body is read; another tenant's file is stored at once", async () => {
    const settings = { IMPORT_MAX_UPLOADS_IN_FLIGHT: '4', IMPORT_MAX_UPLOADS_PER_TENANT: '2' };
    const [first, second] = [await ctx.startGateway(settings), await ctx.startGateway(settings)];
    const busyTenant = await newTenant();
    const held = [
      await openUpload(first.url, await newKey(busyTenant)),
      await openUpload(second.url, await newKey(busyTenant)),
    ];
    await leasesHeld(busyTenant, 2);

    const refused = holdUpload(first.url, `${IMPORTS}?entity=items`, {
      'x-api-key': await newKey(busyTenant),
      ...ndjson,
    });
    const refusal = await refused.answer;
    refused.abort();
    const other = await uploadOne(first.url, await newKey(await newTenant()), 'OTHER-TENANT-1');
    for (const upload of held) upload.end();
    const answers = await Promise.all(held.map((upload) => upload.answer));

    expect(refusal.status).toBe(503);
    expect(refusal.body).toMatchObject({ code: 'UPLOADS_BUSY' });
    expect(refusal.body.message).toContain('IMPORT_MAX_UPLOADS_PER_TENANT');
    expect(Number(refusal.headers['retry-after'])).toBeGreaterThan(0);
    expect(refusal.afterMs).toBeLessThan(ANSWER_WITHIN_MS);
    expect(other.status).toBe(202);
    expect(answers.map((answer) => answer.status)).toEqual([202, 202]);
  });

  it("a killed gateway's slots come back to its tenant once their lease lapses", async () => {
    const settings = { IMPORT_MAX_UPLOADS_PER_TENANT: '1' };
    const doomed = await ctx.startGateway(settings);
    const survivor = await ctx.startGateway(settings);
    const tenantId = await newTenant();
    const key = await newKey(tenantId);
    const orphan = await openUpload(doomed.url, key);
    await leasesHeld(tenantId, 1);
    expect((await uploadOne(survivor.url, key, 'WHILE-HELD')).status).toBe(503);

    await doomed.kill();
    orphan.abort();

    await waitFor(
      () => uploadOne(survivor.url, key, `AFTER-KILL-${randomUUID()}`),
      (answer) => answer.status === 202,
      UPLOAD_LEASE_MS + 10_000,
      "the killed gateway's slot back",
    );
  }, 60_000);

  it('an upload that keeps sending, but slower than IMPORT_MIN_UPLOAD_BYTES_PER_SECOND over the window, gets 408 UPLOAD_TOO_SLOW, stores nothing and frees its slot at once', async () => {
    const windowMs = 1_000;
    const slow = await ctx.startGateway({
      IMPORT_MAX_UPLOADS_IN_FLIGHT: '1',
      IMPORT_MIN_UPLOAD_BYTES_PER_SECOND: '1024',
      IMPORT_UPLOAD_RATE_WINDOW_MS: String(windowMs),
    });
    const key = await newKey(await newTenant());
    const before = await stored();
    const trickle = holdUpload(slow.url, `${IMPORTS}?entity=items`, { 'x-api-key': key, ...ndjson });
    let sending = true;
    const sent = (async () => {
      // One item whose name grows by 16 bytes every 100 ms: never idle, about 160 bytes a second.
      await trickle.write('{"sku":"SLOW-1","baseUomCode":"EA","name":"');
      for (let piece = 0; sending && piece < 100; piece += 1) {
        await trickle.write('s'.repeat(16));
        await delay(100);
      }
    })();

    const answer = await trickle.answer;
    sending = false;
    trickle.abort();
    await sent;
    const kept = await stored();
    const next = await uploadOne(slow.url, key, 'AFTER-SLOW-1');

    expect(answer.status).toBe(408);
    expect(answer.body).toMatchObject({ code: 'UPLOAD_TOO_SLOW' });
    expect(answer.body.message).toContain('IMPORT_MIN_UPLOAD_BYTES_PER_SECOND');
    expect(answer.afterMs).toBeGreaterThanOrEqual(windowMs);
    expect(answer.afterMs).toBeLessThan(ANSWER_WITHIN_MS);
    expect(kept).toEqual(before);
    expect(next.status).toBe(202);
  });
});
