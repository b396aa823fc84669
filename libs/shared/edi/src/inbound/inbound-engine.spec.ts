import { queuePrefix } from '@wms/platform';
import { IngestRegistry, type IngestHandler } from '@wms/ingest';
import {
  arrangeTradingPartner,
  createApiKey,
  createTenantWithWarehouse,
  createTestContext,
  order940,
  x12Interchange,
  type ArrangedPartner,
  type TestContext,
  type TestGateway,
} from '@wms/testing';
import { PartnersRepository } from '../partners/index.js';
import { InterchangesRepository } from '../interchanges/index.js';
import { MailboxRepository } from '../mailbox/index.js';
import { createEdiQueue, type EdiQueue } from './edi.contract.js';
import { EdiInboxService } from './edi-inbox.js';
import { InboundEngine } from './inbound-engine.js';

const BASE = '/api/v1/integration/v1';

/**
 * The engine driven directly (no worker), against PostgreSQL and Redis: a run that dies between two batches
 * leaves exactly the batches it committed, and the next run writes the rest once; an SFTP file moves from
 * in/ to archive/ with its 997 in out/.
 */
describe('the inbound engine', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let queue: EdiQueue;
  let tenantId: string;
  let partner: ArrangedPartner;
  let inbox: EdiInboxService;
  let control = 500;

  beforeAll(async () => {
    ctx = await createTestContext('edi-engine');
    gateway = await ctx.startGateway();
    queue = createEdiQueue({ connection: ctx.runtime.redis, prefix: queuePrefix(ctx.config) });
    const { tenant } = await createTenantWithWarehouse(ctx);
    tenantId = tenant.id;
    const key = (await createApiKey(ctx, { tenantId })).rawKey;
    partner = await arrangeTradingPartner(ctx, { tenantId, warehouseCode: 'WH1' });
    const post = (path: string, body: unknown) =>
      fetch(`${gateway.url}${BASE}${path}`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await post('/items', { sku: 'SKU-1', name: 'One', baseUomCode: 'EA' })).status).toBe(200);
    expect((await post('/partners', { code: 'CUST1', name: 'Customer', type: 'customer' })).status).toBe(200);
    inbox = new EdiInboxService(ctx.runtime.db, queue, ctx.runtime.logger);
  }, 120_000);
  afterAll(async () => {
    await queue?.close();
    await ctx?.close();
  });

  const orders940 = (prefix: string, count: number) =>
    Buffer.from(
      x12Interchange({
        sender: { qualifier: partner.partner.qualifier, id: partner.partner.id, groupCode: partner.partner.groupCode },
        receiver: { qualifier: partner.us.qualifier, id: partner.us.id, groupCode: partner.us.groupCode },
        control: String((control += 1)),
        groups: [
          {
            functionalId: 'OW',
            control: String(control),
            sets: Array.from({ length: count }, (_value, index) => ({
              code: '940',
              control: String(index + 1).padStart(4, '0'),
              segments: order940({
                referenceNo: `${prefix}-${index}`,
                customerCode: 'CUST1',
                lines: [{ sku: 'SKU-1', qty: 1 }],
              }),
            })),
          },
        ],
      }),
    );

  async function count(sql: string, bind: unknown[]): Promise<number> {
    const [rows] = (await ctx.runtime.db.sequelize.query(sql, { bind })) as [Array<{ count: number }>, unknown];
    return rows[0]!.count;
  }
  const orders = (prefix: string) =>
    count(`SELECT count(*)::int AS count FROM sales_orders WHERE tenant_id = $1 AND reference_no LIKE $2`, [
      tenantId,
      `${prefix}-%`,
    ]);
  const sets = (interchangeId: string) =>
    count(`SELECT count(*)::int AS count FROM edi_transaction_sets WHERE interchange_id = $1 AND state = 'accepted'`, [
      interchangeId,
    ]);

  it('a run whose third batch dies keeps the batches that were written beside it (up to four at once); the next run writes the rest once', async () => {
    const found = await new PartnersRepository(ctx.runtime.db).find(partner.id);
    const stored = await inbox.receive(found!, { source: 'http', fileName: null, content: orders940('CRASH', 350) });
    const real = ctx.services.ingest;
    let batches = 0;
    let died = 0;
    const dying = new IngestRegistry(
      real.list().map((handler): IngestHandler =>
        handler.entity === 'orders'
          ? {
              ...handler,
              writeBatch: ((...args: unknown[]) => {
                batches += 1;
                if (batches === 3) {
                  died = (args[1] as unknown[]).length;
                  return Promise.reject(new Error('the worker died'));
                }
                return (handler.writeBatch as (...values: unknown[]) => ReturnType<IngestHandler['writeBatch']>)(
                  ...args,
                );
              }) as IngestHandler['writeBatch'],
            }
          : handler,
      ),
    );
    await expect(new InboundEngine(ctx.runtime.db, dying, ctx.runtime.logger).process(stored.id)).rejects.toThrow(
      'the worker died',
    );
    // The batches in flight beside the one that died (up to four at once: 100, 100, 100 and 50 sets) committed;
    // the one that died rolled back whole.
    expect(died).toBeGreaterThan(0);
    expect(await orders('CRASH')).toBe(350 - died);
    expect(await sets(stored.id)).toBe(350 - died);

    expect(await new InboundEngine(ctx.runtime.db, real, ctx.runtime.logger).process(stored.id)).toBe('accepted');
    expect(await orders('CRASH')).toBe(350);
    expect(await sets(stored.id)).toBe(350);
    // Read again once done: nothing happens.
    expect(await new InboundEngine(ctx.runtime.db, real, ctx.runtime.logger).process(stored.id)).toBeNull();
    expect(await orders('CRASH')).toBe(350);
  }, 120_000);

  it('an SFTP file is in in/ until read, then in archive/, with its 997 in out/', async () => {
    const found = await new PartnersRepository(ctx.runtime.db).find(partner.id);
    const mailbox = new MailboxRepository(ctx.runtime.db);
    const stored = await inbox.receive(found!, {
      source: 'sftp',
      fileName: 'orders-1.x12',
      content: orders940('SFTP', 2),
    });
    expect((await mailbox.list(partner.id, 'in')).map((file) => file.name)).toEqual(['orders-1.x12']);
    expect(await new InboundEngine(ctx.runtime.db, ctx.services.ingest, ctx.runtime.logger).process(stored.id)).toBe(
      'accepted',
    );
    expect(await mailbox.list(partner.id, 'in')).toEqual([]);
    expect((await mailbox.list(partner.id, 'archive')).map((file) => file.name)).toContain('orders-1.x12');
    const { acknowledgmentId } = (await new InterchangesRepository(ctx.runtime.db).find(stored.id))!;
    const answer = (await mailbox.list(partner.id, 'out')).find((file) => file.interchangeId === acknowledgmentId)!;
    expect(answer.name).toMatch(/^997_\d{9}\.x12$/);
    expect((await mailbox.content(answer.id))!.toString('latin1')).toContain('AK9*A*2*2*2~');
    expect(await orders('SFTP')).toBe(2);
  }, 120_000);
});
