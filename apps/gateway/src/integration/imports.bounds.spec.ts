import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import {
  TEST_ADMIN,
  createApiKey,
  createTestContext,
  defaultTenantId,
  gzipOfLong,
  holdUpload,
  loginAs,
  peakMemoryGrowth,
  upload,
  waitFor,
  type HeldUpload,
  type TestContext,
  type TestGateway,
} from '@wms/testing';

const IMPORTS = '/api/v1/integration/v1/imports';
const MiB = 1 << 20;
/** Far above what a 413 at the first MiB takes, far below what reading 64 MiB a line at a time took. */
const ANSWER_WITHIN_MS = 5_000;
/** Room for uncollected garbage; a gateway that held the 64 MiB line or field whole would pass it alone. */
const MEMORY_GROWTH_BOUND = 48 * MiB;

const itemLine = (sku: string, name = `Item ${sku}`) => JSON.stringify({ sku, name, baseUomCode: 'EA' });
const ndjson = { 'content-type': 'application/x-ndjson' };
const csv = { 'content-type': 'text/csv' };

/** What a hostile or careless file can cost a gateway: one row, one record, one more upload. */
describe('the bounds of a file upload', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let tenantId: string;

  beforeAll(async () => {
    ctx = await createTestContext('imports-bounds');
    // Every upload of this file is the default tenant's: its share is the whole gateway's here.
    gateway = await ctx.startGateway({ IMPORT_MAX_UPLOADS_PER_TENANT: '4' });
    tenantId = await defaultTenantId(ctx);
  });
  afterAll(() => ctx.close());

  const newKey = async () => (await createApiKey(ctx, { tenantId })).rawKey;

  async function count(sql: string): Promise<number> {
    const [rows] = (await ctx.runtime.db.sequelize.query(sql)) as [{ n: number }[], unknown];
    return rows[0]!.n;
  }
  const storedRows = () => count('SELECT count(*)::int AS n FROM import_rows');
  const storedImports = () => count('SELECT count(*)::int AS n FROM imports');
  const copiesRunning = () =>
    count(
      `SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND query LIKE 'COPY import_rows%' AND state = 'active'`,
    );

  describe('row size', () => {
    it('when an NDJSON line is 64 MiB of gzip-compressed "a" without a newline, it answers 413 ROW_TOO_LARGE naming line 3 at once, stores nothing, and the gateway holds no more than a row of it', async () => {
      const body = await gzipOfLong(`${itemLine('FIRST')}\n${itemLine('SECOND')}\n`, 'a', 64 * MiB);
      const before = { rows: await storedRows(), imports: await storedImports() };

      const { result: answer, growthBytes } = await peakMemoryGrowth(async () =>
        upload(
          gateway.url,
          `${IMPORTS}?entity=items`,
          { 'x-api-key': await newKey(), ...ndjson, 'content-encoding': 'gzip' },
          body,
        ),
      );

      expect(body.length).toBeLessThan(MiB);
      expect(answer.status).toBe(413);
      expect(answer.body).toMatchObject({ code: 'ROW_TOO_LARGE', line: 3 });
      expect(answer.body.message).toContain('Line 3');
      expect(answer.afterMs).toBeLessThan(ANSWER_WITHIN_MS);
      expect(growthBytes).toBeLessThan(MEMORY_GROWTH_BOUND);
      expect({ rows: await storedRows(), imports: await storedImports() }).toEqual(before);
    });

    it('when a CSV record holds a 64 MiB quoted field, it answers 413 ROW_TOO_LARGE naming its line at once, stores nothing, and the gateway holds no more than a record of it', async () => {
      const body = await gzipOfLong('sku,name,baseUomCode\nOK-1,Fine,EA\nBIG-1,"', 'a', 64 * MiB, '",EA\n');
      const before = { rows: await storedRows(), imports: await storedImports() };

      const { result: answer, growthBytes } = await peakMemoryGrowth(async () =>
        upload(
          gateway.url,
          `${IMPORTS}?entity=items`,
          { 'x-api-key': await newKey(), ...csv, 'content-encoding': 'gzip' },
          body,
        ),
      );

      expect(answer.status).toBe(413);
      expect(answer.body).toMatchObject({ code: 'ROW_TOO_LARGE', line: 3 });
      expect(answer.afterMs).toBeLessThan(ANSWER_WITHIN_MS);
      expect(growthBytes).toBeLessThan(MEMORY_GROWTH_BOUND);
      expect({ rows: await storedRows(), imports: await storedImports() }).toEqual(before);
    });

    it('when a CSV record has more than 1,024 fields, however short, it answers 413 ROW_TOO_LARGE naming its line', async () => {
      const body = `sku,name,baseUomCode\nOK-1,Fine,EA\nWIDE-1,Wide,EA${','.repeat(5_000)}\n`;

      const answer = await upload(
        gateway.url,
        `${IMPORTS}?entity=items`,
        { 'x-api-key': await newKey(), ...csv },
        body,
      );

      expect(answer.status).toBe(413);
      expect(answer.body).toMatchObject({ code: 'ROW_TOO_LARGE', line: 3 });
    });

    it('a line of exactly IMPORT_MAX_ROW_BYTES is stored; one byte more is refused', async () => {
      const small = await ctx.startGateway({ IMPORT_MAX_ROW_BYTES: '2048' });
      const lineOf = (bytes: number) => {
        const bare = itemLine('EDGE-1', '');
        return itemLine('EDGE-1', 'n'.repeat(bytes - bare.length));
      };
      const key = await newKey();

      const within = await upload(
        small.url,
        `${IMPORTS}?entity=items`,
        { 'x-api-key': key, ...ndjson },
        `${lineOf(2048)}\n`,
      );
      const over = await upload(
        small.url,
        `${IMPORTS}?entity=items`,
        { 'x-api-key': key, ...ndjson },
        `${lineOf(2049)}\n`,
      );

      expect(within.status).toBe(202);
      expect(over.status).toBe(413);
      expect(over.body).toMatchObject({ code: 'ROW_TOO_LARGE', line: 1 });
    });
  });

  describe('uploads in flight', () => {
    /** Starts an upload and sends its first line: it holds a COPY connection until ended. */
    async function openUpload(url: string, key: string): Promise<HeldUpload> {
      const held = holdUpload(url, `${IMPORTS}?entity=items`, { 'x-api-key': key, ...ndjson });
      await held.write(`${itemLine(`HELD-${randomUUID()}`)}\n`);
      return held;
    }

    it('when IMPORT_MAX_UPLOADS_IN_FLIGHT uploads are held open, the next gets 503 with Retry-After before its body is read; the held ones are stored once they end', async () => {
      const narrow = await ctx.startGateway({ IMPORT_MAX_UPLOADS_IN_FLIGHT: '2', IMPORT_MAX_UPLOADS_PER_TENANT: '2' });
      const held = [await openUpload(narrow.url, await newKey()), await openUpload(narrow.url, await newKey())];
      await waitFor(copiesRunning, (n) => n === 2, 10_000, 'both uploads to stream into COPY');
      const lateKey = await newKey();

      const refused = holdUpload(narrow.url, `${IMPORTS}?entity=items`, { 'x-api-key': lateKey, ...ndjson });
      const refusal = await refused.answer;
      refused.abort();
      for (const upload of held) upload.end(`${itemLine(`HELD-${randomUUID()}`)}\n`);
      const stored = await Promise.all(held.map((upload) => upload.answer));
      const later = await upload(
        narrow.url,
        `${IMPORTS}?entity=items`,
        { 'x-api-key': lateKey, ...ndjson },
        `${itemLine('LATE-1')}\n`,
      );

      expect(refusal.status).toBe(503);
      expect(refusal.body).toMatchObject({ code: 'UPLOADS_BUSY' });
      expect(Number(refusal.headers['retry-after'])).toBeGreaterThan(0);
      expect(refusal.afterMs).toBeLessThan(ANSWER_WITHIN_MS);
      expect(stored.map((answer) => answer.status)).toEqual([202, 202]);
      expect(later.status).toBe(202);
    });

    it('when a key holds IMPORT_MAX_CONCURRENT_PER_KEY uploads open, its next gets 429 at once; another key is accepted meanwhile', async () => {
      const busyKey = await newKey();
      const held = [await openUpload(gateway.url, busyKey), await openUpload(gateway.url, busyKey)];
      await waitFor(copiesRunning, (n) => n === 2, 10_000, "the key's two uploads to stream into COPY");

      const refused = holdUpload(gateway.url, `${IMPORTS}?entity=items`, { 'x-api-key': busyKey, ...ndjson });
      const refusal = await refused.answer;
      refused.abort();
      const other = await upload(
        gateway.url,
        `${IMPORTS}?entity=items`,
        { 'x-api-key': await newKey(), ...ndjson },
        `${itemLine('OTHER-1')}\n`,
      );
      for (const upload of held) upload.end();
      const stored = await Promise.all(held.map((upload) => upload.answer));

      expect(refusal.status).toBe(429);
      expect(refusal.body).toMatchObject({ code: 'TOO_MANY_IMPORTS' });
      expect(refusal.afterMs).toBeLessThan(ANSWER_WITHIN_MS);
      expect(other.status).toBe(202);
      expect(stored.map((answer) => answer.status)).toEqual([202, 202]);
    });
  });

  describe('an upload that stops sending', () => {
    const IDLE_MS = 300;
    let idleGateway: TestGateway;

    beforeAll(async () => {
      idleGateway = await ctx.startGateway({
        IMPORT_UPLOAD_IDLE_TIMEOUT_MS: String(IDLE_MS),
        IMPORT_MAX_UPLOADS_IN_FLIGHT: '1',
      });
    });

    it('when an upload sends a few lines and then nothing for IMPORT_UPLOAD_IDLE_TIMEOUT_MS, it answers 408 UPLOAD_IDLE, stores nothing, and frees its slot for the next upload', async () => {
      const before = { rows: await storedRows(), imports: await storedImports() };
      const stalled = holdUpload(idleGateway.url, `${IMPORTS}?entity=items`, {
        'x-api-key': await newKey(),
        ...ndjson,
      });
      for (const sku of ['IDLE-1', 'IDLE-2', 'IDLE-3']) await stalled.write(`${itemLine(sku)}\n`);

      const answer = await stalled.answer;
      stalled.abort();
      const kept = { rows: await storedRows(), imports: await storedImports() };
      const next = await upload(
        idleGateway.url,
        `${IMPORTS}?entity=items`,
        { 'x-api-key': await newKey(), ...ndjson },
        `${itemLine('AFTER-IDLE-1')}\n`,
      );

      expect(answer.status).toBe(408);
      expect(answer.body).toMatchObject({ code: 'UPLOAD_IDLE' });
      expect(answer.body.message).toContain('IMPORT_UPLOAD_IDLE_TIMEOUT_MS');
      expect(answer.afterMs).toBeGreaterThanOrEqual(IDLE_MS);
      expect(answer.afterMs).toBeLessThan(ANSWER_WITHIN_MS);
      expect(kept).toEqual(before);
      expect(next.status).toBe(202);
    });

    it("when a portal upload stops sending, it answers 408 UPLOAD_IDLE in the admin API's error shape and stores nothing", async () => {
      const token = await loginAs(idleGateway.url, TEST_ADMIN.email, TEST_ADMIN.password);
      const before = { rows: await storedRows(), imports: await storedImports() };
      const stalled = holdUpload(idleGateway.url, `/api/v1/imports?entity=items&tenantId=${tenantId}`, {
        authorization: `Bearer ${token}`,
        ...csv,
      });
      await stalled.write('sku,name,baseUomCode\nIDLE-CSV-1,Idle,EA\n');

      const answer = await stalled.answer;
      stalled.abort();

      expect(answer.status).toBe(408);
      expect(answer.body).toMatchObject({ statusCode: 408, code: 'UPLOAD_IDLE' });
      expect({ rows: await storedRows(), imports: await storedImports() }).toEqual(before);
    });

    it('an upload that keeps sending a line more often than the idle timeout, for several timeouts in all, is stored whole', async () => {
      const lines = Array.from({ length: 16 }, (_, index) => itemLine(`TRICKLE-${index + 1}`));
      const trickle = holdUpload(idleGateway.url, `${IMPORTS}?entity=items`, {
        'x-api-key': await newKey(),
        ...ndjson,
      });

      for (const line of lines) {
        await trickle.write(`${line}\n`);
        await delay(IDLE_MS / 4);
      }
      trickle.end();
      const answer = await trickle.answer;

      expect(answer.status).toBe(202);
      const jobId = String(answer.body.jobId);
      expect(await count(`SELECT total AS n FROM imports WHERE id = '${jobId}'`)).toBe(lines.length);
    });
  });

  it('a portal import into a tenant that does not exist answers 404 before its body is read, and stores nothing', async () => {
    const token = await loginAs(gateway.url, TEST_ADMIN.email, TEST_ADMIN.password);
    const before = await storedImports();

    const held = holdUpload(gateway.url, `/api/v1/imports?entity=items&tenantId=${randomUUID()}`, {
      authorization: `Bearer ${token}`,
      ...csv,
    });
    const answer = await held.answer;
    held.abort();

    expect(answer.status).toBe(404);
    expect(answer.body.message).toContain('Tenant');
    expect(answer.afterMs).toBeLessThan(ANSWER_WITHIN_MS);
    expect(await storedImports()).toBe(before);
  });
});
