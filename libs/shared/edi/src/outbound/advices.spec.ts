import { X12Parser, type X12Interchange } from 'node-x12';
import { Registry } from 'prom-client';
import { openRuntime, queuePrefix, renderForVersion, unitOfWork } from '@wms/platform';
import type { WriteContext } from '@wms/warehouse';
import {
  createMasterData,
  createTenantWithWarehouse,
  createTestContext,
  drainRelay,
  relayOver,
  startTestWebhookWorker,
  waitFor,
  type TestContext,
} from '@wms/testing';
import { MailboxRepository } from '../mailbox/index.js';
import { PartnersRepository, type TradingPartner } from '../partners/index.js';
import { inventoryAdvice846 } from '../sets/index.js';
import {
  EdiDocumentSender,
  EdiOutbound,
  InventoryAdviceSchedule,
  OutboundRepository,
  OutboundWriter,
  documentLookups,
  ediOutboundGauges,
  isAcknowledgmentOverdue,
} from './index.js';
import { DeliveryRepository, SecretBox, createWebhookDeliveryQueue } from '@wms/webhooks';

const fastRetries = { backoffBaseMs: 200, maxAttempts: 3, timeoutMs: 5_000 };

/** The segments of the interchange's sets, read by an independent parser (node-x12), as [tag, ...elements]. */
function parsed(raw: Buffer): { interchange: X12Interchange; sets: string[][][] } {
  const interchange = new X12Parser(true).parse(raw.toString('utf8')) as X12Interchange;
  const sets = interchange.functionalGroups.flatMap((group) =>
    group.transactions.map((set) =>
      set.segments.map((segment) => [segment.tag, ...segment.elements.map((e) => e.value)]),
    ),
  );
  return { interchange, sets };
}

const withTag = (segments: string[][], tag: string) => segments.filter((segment) => segment[0] === tag);

describe('EDI advices written from events (944, 945, 947) and stock (846)', () => {
  let ctx: TestContext;
  let outbound: EdiOutbound;
  let partners: PartnersRepository;
  let mailbox: MailboxRepository;

  beforeAll(async () => {
    ctx = await createTestContext('edi-outbound', { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
    outbound = new EdiOutbound(ctx.runtime.db, SecretBox.fromConfig(ctx.config), documentLookups(ctx.runtime.db));
    partners = new PartnersRepository(ctx.runtime.db);
    mailbox = new MailboxRepository(ctx.runtime.db);
  });
  afterAll(async () => {
    await ctx.close();
  });

  const query = async <T>(sql: string, bind: unknown[] = []): Promise<T[]> =>
    (await ctx.runtime.db.sequelize.query(sql, { bind }))[0] as T[];

  /** A tenant with a lot-tracked and a plain item, stock of both, a customer, a supplier and a partner. */
  async function arrange(options: { adviceMinutes?: number } = {}) {
    const { tenant } = await createTenantWithWarehouse(ctx, undefined, 'WH1');
    await createMasterData(ctx, tenant.id, {
      items: [
        { sku: 'LOTTED', tracking: 'lot' },
        { sku: 'PLAIN', baseUomCode: 'CS' },
      ],
      partners: [
        { code: 'CUST', type: 'customer' },
        { code: 'SUPP', type: 'supplier' },
      ],
      locations: [{ warehouseCode: 'WH1', code: 'A-01' }],
    });
    const [row] = await query<{ id: string }>(
      `INSERT INTO edi_trading_partners (tenant_id, name, partner_qualifier, partner_interchange_id, our_qualifier,
                                         our_interchange_id, partner_group_code, our_group_code, ship_from,
                                         inventory_advice_minutes, next_inventory_advice_at)
       VALUES ($1, 'Retailer', 'ZZ', $2, 'ZZ', 'OURWMS', 'RETAILER', 'OURWMS', $3::jsonb, $4,
               CASE WHEN $4::int IS NULL THEN NULL ELSE now() - interval '1 minute' END)
       RETURNING id`,
      [
        tenant.id,
        `R${tenant.id.slice(0, 8)}`,
        JSON.stringify({ name: 'Main DC', address: '1 Dock Road', city: 'Leeds', postalCode: 'LS1' }),
        options.adviceMinutes ?? null,
      ],
    );
    const partner = (await partners.find(row!.id))!;
    await unitOfWork(ctx.runtime.db, (transaction) => outbound.syncSubscription(partner, transaction));
    return { tenantId: tenant.id, partner: (await partners.find(partner.id))! };
  }

  const run = <T>(tenantId: string, work: (context: WriteContext) => Promise<T>) =>
    ctx.runtime.db.sequelize.transaction((transaction) => work({ tenantId, transaction }));

  /** What inbound writes when a partner's 940 or 943/856 became our order or ASN. */
  async function receivedFromPartner(partner: TradingPartner, kind: 'order' | 'asn', ref: string) {
    const [interchange] = await query<{ id: string }>(
      `INSERT INTO edi_interchanges (tenant_id, partner_id, direction, source, interchange_control, set_codes, raw,
                                     size_bytes, state)
       VALUES ($1, $2, 'in', 'sftp', lpad((floor(random() * 1e8))::int::text, 9, '0'), '{940}', '\\x00', 1, 'accepted')
       RETURNING id`,
      [partner.tenantId, partner.id],
    );
    await query(
      `INSERT INTO edi_transaction_sets (interchange_id, tenant_id, partner_id, direction, set_code, functional_id,
                                         group_control, set_control, state, document_kind, document_ref)
       VALUES ($1, $2, $3, 'in', $4, $5, '1', lpad((floor(random() * 1e4))::int::text, 4, '0'), 'accepted', $6, $7)`,
      [
        interchange!.id,
        partner.tenantId,
        partner.id,
        kind === 'order' ? '940' : '943',
        kind === 'order' ? 'OW' : 'AR',
        kind,
        ref,
      ],
    );
  }

  async function shipOrder(tenantId: string, referenceNo: string): Promise<string> {
    const [outcome] = await run(tenantId, (context) =>
      ctx.services.orders.createOrders(context, [
        {
          warehouseCode: 'WH1',
          customerCode: 'CUST',
          priority: 0,
          referenceNo,
          shipTo: { name: 'Store 12', address: '5 High Street' },
          lines: [
            { lineNo: 1, sku: 'LOTTED', uomCode: 'EA', qtyOrdered: 2.5 },
            { lineNo: 2, sku: 'PLAIN', uomCode: 'CS', qtyOrdered: 3 },
          ],
        },
      ]),
    );
    if (!outcome?.ok) throw new Error(`order not created: ${JSON.stringify(outcome)}`);
    const orderNo = outcome.data.orderNo as string;
    await run(tenantId, (context) => ctx.services.allocation.allocate(context, orderNo));
    await run(tenantId, (context) => ctx.services.picking.release(context, orderNo));
    const tasks = (await ctx.services.orders.inquire(tenantId, orderNo)).pickTasks as Array<{ id: string }>;
    for (const task of tasks) await run(tenantId, (context) => ctx.services.picking.confirm(context, task.id, {}));
    await run(tenantId, (context) =>
      ctx.services.shipping.ship(context, orderNo, { carrier: 'UPSN', trackingNo: '1Z999AA10123456784' }),
    );
    return orderNo;
  }

  async function stockUp(tenantId: string) {
    await run(tenantId, (context) =>
      ctx.services.adjustments.adjust(context, {
        warehouseCode: 'WH1',
        locationCode: 'A-01',
        sku: 'LOTTED',
        lotNo: 'LOT-7',
        qtyDelta: 10.25,
        reason: 'opening stock',
      }),
    );
    await run(tenantId, (context) =>
      ctx.services.adjustments.adjust(context, {
        warehouseCode: 'WH1',
        locationCode: 'A-01',
        sku: 'PLAIN',
        qtyDelta: 8,
        reason: 'opening stock',
      }),
    );
  }

  const outFiles = (partnerId: string) => mailbox.list(partnerId, 'out');
  const outFile = async (partnerId: string, prefix: string) => {
    const files = await outFiles(partnerId);
    return files.filter((file) => file.name.startsWith(prefix));
  };
  const contentOf = async (fileId: string) => (await mailbox.content(fileId))!;

  it('when an order the partner sent is shipped, a 945 in out/ reads back with its skus, quantities, lots and tracking', async () => {
    const worker = startTestWebhookWorker(ctx, { webhook: fastRetries });
    const { tenantId, partner } = await arrange();
    await stockUp(tenantId);
    await receivedFromPartner(partner, 'order', 'PO-945');

    const orderNo = await shipOrder(tenantId, 'PO-945');
    const [file] = await waitFor(
      () => outFile(partner.id, '945_'),
      (files) => files.length === 1,
      20_000,
    );
    await worker.close();

    const { interchange, sets } = parsed(await contentOf(file!.id));
    expect(Number(interchange.header.elements[12]!.value)).toBe(Number(file!.name.slice(4, 13)));
    const [set] = sets;
    expect(withTag(set!, 'W06')[0]).toEqual([
      'W06',
      'F',
      'PO-945',
      expect.stringMatching(/^\d{8}$/),
      orderNo,
      expect.stringMatching(/^SHP-/),
    ]);
    expect(withTag(set!, 'N9')).toEqual(
      expect.arrayContaining([
        ['N9', '2I', '1Z999AA10123456784'],
        ['N9', 'LT', 'LOT-7'],
      ]),
    );
    expect(withTag(set!, 'W27')[0]).toEqual(['W27', 'M', 'UPSN', 'UPSN']);
    expect(withTag(set!, 'N1')).toEqual(
      expect.arrayContaining([
        ['N1', 'ST', 'Store 12'],
        ['N1', 'SF', 'Main DC'],
      ]),
    );
    expect(withTag(set!, 'W12').map((w12) => [w12[3], w12[5], w12[8]])).toEqual([
      ['2.5', 'EA', 'LOTTED'],
      ['3', 'CS', 'PLAIN'],
    ]);
    expect(withTag(set!, 'W03')[0]![1]).toBe('5.5');
  });

  it('when an order the partner did not send is shipped, the delivery succeeds saying so and nothing is written', async () => {
    const worker = startTestWebhookWorker(ctx, { webhook: fastRetries });
    const { tenantId, partner } = await arrange();
    await stockUp(tenantId);

    await shipOrder(tenantId, 'PO-NOT-EDI');
    await waitFor(
      () =>
        query<{ status: string; body: string }>(
          `SELECT d.status, a.response_body AS body FROM webhook_deliveries d
             JOIN webhook_delivery_attempts a ON a.delivery_id = d.id
            WHERE d.subscription_id = $1 AND d.event = 'order.shipped'`,
          [partner.subscriptionId],
        ),
      (rows) => rows.length === 1 && rows[0]!.status === 'succeeded',
      20_000,
    );
    await worker.close();

    const [attempt] = await query<{ body: string }>(
      `SELECT a.response_body AS body FROM webhook_deliveries d JOIN webhook_delivery_attempts a ON a.delivery_id = d.id
        WHERE d.subscription_id = $1 AND d.event = 'order.shipped'`,
      [partner.subscriptionId],
    );
    expect(attempt!.body).toMatch(/not this partner's: order .* did not come from this partner/);
    expect(await outFile(partner.id, '945_')).toEqual([]);
  });

  it('when the same delivery is attempted twice at once, one 945 is written and both attempts succeed', async () => {
    const worker = startTestWebhookWorker(ctx, { webhook: fastRetries });
    const { tenantId, partner } = await arrange();
    await stockUp(tenantId);
    await receivedFromPartner(partner, 'order', 'PO-TWICE');
    await shipOrder(tenantId, 'PO-TWICE');
    await waitFor(
      () => outFile(partner.id, '945_'),
      (files) => files.length === 1,
      20_000,
    );
    await worker.close();
    const [delivery] = await query<{ id: string }>(
      `SELECT id FROM webhook_deliveries WHERE subscription_id = $1 AND event = 'order.shipped'`,
      [partner.subscriptionId],
    );
    const work = (await new DeliveryRepository(ctx.runtime.db).load(delivery!.id))!;
    const body = JSON.stringify({
      id: work.eventId,
      event: work.event,
      timestamp: work.occurredAt.toISOString(),
      sequence: work.sequence,
      data: renderForVersion(work.data, work.apiVersion),
    });
    const sender = new EdiDocumentSender(ctx.runtime.db, documentLookups(ctx.runtime.db));

    const snippets = await Promise.all([sender.deliver(work, body), sender.deliver(work, body)]);

    expect(snippets.every((snippet) => snippet.startsWith('written before: out/945_'))).toBe(true);
    const written = await query<{ n: number }>(
      `SELECT count(*)::int AS n FROM edi_interchanges WHERE partner_id = $1 AND source_event_id = $2`,
      [partner.id, work.eventId],
    );
    expect(written[0]!.n).toBe(1);
    expect(await outFile(partner.id, '945_')).toHaveLength(1);
  });

  it('when a partner’s advice failed all its attempts, recovering it writes the 945 once', async () => {
    const { tenantId, partner } = await arrange();
    await stockUp(tenantId);
    await receivedFromPartner(partner, 'order', 'PO-RECOVER');
    const since = new Date(Date.now() - 60_000);
    await shipOrder(tenantId, 'PO-RECOVER');
    // Fanned out without a delivery worker, then ended as a run whose attempts were used up would be.
    const queue = createWebhookDeliveryQueue(ctx.runtime.redis, queuePrefix(ctx.config), 3);
    await drainRelay(relayOver(ctx, queue));
    await queue.close();
    await query(
      `UPDATE webhook_deliveries SET status = 'failed', last_error = 'timeout', next_attempt_at = NULL
        WHERE subscription_id = $1 AND event = 'order.shipped'`,
      [partner.subscriptionId],
    );

    const recovered = await outbound.recoverFailed(partner, since);
    const worker = startTestWebhookWorker(ctx, { webhook: fastRetries });
    const files = await waitFor(
      () => outFile(partner.id, '945_'),
      (found) => found.length === 1,
      20_000,
    );
    await waitFor(
      () =>
        query<{ status: string }>(
          `SELECT status FROM webhook_deliveries WHERE subscription_id = $1 AND event = 'order.shipped'`,
          [partner.subscriptionId],
        ),
      (rows) => rows[0]?.status === 'succeeded',
      20_000,
    );
    await worker.close();

    expect(recovered).toBe(1);
    expect(files).toHaveLength(1);
    expect(await outbound.recoverFailed(partner, since)).toBe(0);
  });

  it('when goods are received against the partner’s ASN, a 944 per receipt and a final one are written', async () => {
    const worker = startTestWebhookWorker(ctx, { webhook: fastRetries });
    const { tenantId, partner } = await arrange();
    const [created] = await run(tenantId, (context) =>
      ctx.services.asns.createAsns(context, [
        {
          warehouseCode: 'WH1',
          supplierCode: 'SUPP',
          referenceNo: 'ASN-REF-1',
          lines: [
            { lineNo: 1, sku: 'LOTTED', uomCode: 'EA', expectedQty: 4, lotNo: 'LOT-IN' },
            { lineNo: 2, sku: 'PLAIN', uomCode: 'CS', expectedQty: 6 },
          ],
        },
      ]),
    );
    if (!created?.ok) throw new Error('ASN not created');
    const asnNo = created.data.asnNo as string;
    await receivedFromPartner(partner, 'asn', asnNo);

    await run(tenantId, (context) =>
      ctx.services.grns.receive(context, {
        warehouseCode: 'WH1',
        asnNo,
        lines: [{ asnLineNo: 1, sku: 'LOTTED', uomCode: 'EA', qty: 1.5, lotNo: 'LOT-IN' }],
      }),
    );
    await run(tenantId, (context) => ctx.services.grns.receiveOpenLines(context, asnNo));
    const files = await waitFor(
      () => outFile(partner.id, '944_'),
      (found) => found.length === 3,
      20_000,
    );
    await worker.close();

    const advices = await Promise.all(files.map(async (file) => parsed(await contentOf(file.id)).sets[0]!));
    const byStatus = (status: string) => advices.filter((set) => withTag(set, 'W17')[0]![1] === status);
    expect(byStatus('P')).toHaveLength(2);
    const [final] = byStatus('F');
    expect(withTag(final!, 'W17')[0]![4]).toBe(asnNo);
    expect(withTag(final!, 'W07').map((w07) => [w07[1], w07[2], w07[5], w07[7]])).toEqual([
      ['4', 'EA', 'LOTTED', 'LOT-IN'],
      ['6', 'CS', 'PLAIN', undefined],
    ]);
    expect(withTag(final!, 'W14')[0]![1]).toBe('10');
    const [first, second] = byStatus('P').sort((a, b) =>
      withTag(a, 'W17')[0]![3]!.localeCompare(withTag(b, 'W17')[0]![3]!),
    );
    expect(withTag(first!, 'W07').map((w07) => w07.slice(1, 8))).toEqual([
      ['1.5', 'EA', '', 'SK', 'LOTTED', '', 'LOT-IN'],
    ]);
    expect(withTag(second!, 'W07').map((w07) => [w07[1], w07[5]])).toEqual([
      ['2.5', 'LOTTED'],
      ['6', 'PLAIN'],
    ]);
    expect(withTag(second!, 'W14')[0]![1]).toBe('8.5');
  });

  it('when stock is adjusted or a count finds a variance, a 947 is written with the signed quantity, lot and reason', async () => {
    const worker = startTestWebhookWorker(ctx, { webhook: fastRetries });
    const { tenantId, partner } = await arrange();

    await stockUp(tenantId);
    await run(tenantId, (context) =>
      ctx.services.cycleCounts.record(context, {
        warehouseCode: 'WH1',
        locationCode: 'A-01',
        sku: 'LOTTED',
        lotNo: 'LOT-7',
        countedQty: 9.75,
      }),
    );
    // The count also corrects the stock (a stock.adjusted of its own): 2 + 2 advices.
    const files = await waitFor(
      () => outFile(partner.id, '947_'),
      (found) => found.length >= 4,
      20_000,
    );
    await worker.close();

    const adjustments = await Promise.all(files.map(async (file) => parsed(await contentOf(file.id)).sets[0]!));
    const w19s = adjustments.map((set) => withTag(set, 'W19')[0]!.slice(1, 7));
    expect(w19s).toEqual(
      expect.arrayContaining([
        ['07', '10.25', 'EA', '', 'SK', 'LOTTED'],
        ['07', '8', 'CS', '', 'SK', 'PLAIN'],
        ['AA', '-0.5', 'EA', '', 'SK', 'LOTTED'],
      ]),
    );
    const opening = adjustments.find((set) => withTag(set, 'W19')[0]![2] === '10.25')!;
    expect(withTag(opening, 'N9')).toEqual([
      ['N9', 'LT', 'LOT-7'],
      ['N9', 'LU', 'A-01'],
      ['N9', 'ZZ', 'opening stock'],
    ]);
  });

  it('when a partner’s 846 is due, one sweep of two at once writes it with the stock per warehouse and moves the time on', async () => {
    const { tenantId, partner } = await arrange({ adviceMinutes: 60 });
    await stockUp(tenantId);
    const sweep = () => new InventoryAdviceSchedule(ctx.runtime.db, outbound).runDue();

    const outcomes = await Promise.all([sweep(), sweep()]);

    expect(outcomes.reduce((sum, outcome) => sum + outcome.written, 0)).toBeGreaterThanOrEqual(1);
    const files = await outFile(partner.id, '846_');
    expect(files).toHaveLength(1);
    const [set] = parsed(await contentOf(files[0]!.id)).sets;
    expect(withTag(set!, 'N1')[0]).toEqual(['N1', 'WH', 'WH1', '91', 'WH1']);
    expect(set!.filter((segment) => ['LIN', 'QTY'].includes(segment[0]!))).toEqual([
      ['LIN', '', 'SK', 'LOTTED'],
      ['QTY', '17', '10.25', 'EA'],
      ['QTY', '33', '10.25', 'EA'],
      ['LIN', '', 'SK', 'PLAIN'],
      ['QTY', '17', '8', 'CS'],
      ['QTY', '33', '8', 'CS'],
    ]);
    const [row] = await query<{ source: string; minutes: number }>(
      `SELECT i.source, extract(epoch FROM p.next_inventory_advice_at - now()) / 60 AS minutes
         FROM edi_interchanges i JOIN edi_trading_partners p ON p.id = i.partner_id WHERE i.id = $1`,
      [files[0]!.interchangeId],
    );
    expect(row!.source).toBe('schedule');
    expect(Number(row!.minutes)).toBeGreaterThan(58);
    expect(await sweep()).toEqual({ written: 0, failed: 0 });
  });

  it('when two runtimes write a partner’s advices at once, the control numbers are unique and run 1, 2, 3… without a gap', async () => {
    const { partner } = await arrange();
    const second = openRuntime(ctx.config, { name: 'edi-second', redisRole: 'producer' });
    const writers = [new OutboundWriter(ctx.runtime.db), new OutboundWriter(second.db)];
    const set = inventoryAdvice846({ warehouseCode: 'WH1', items: [] }, 'REF', { date: '20261202', time: '1430' });

    try {
      await Promise.all(
        Array.from({ length: 20 }, (_, index) =>
          writers[index % 2]!.write(partner, {
            source: 'demand',
            documents: [{ set, documentKind: null, documentRef: null }],
          }),
        ),
      );
    } finally {
      await second.close();
    }

    const rows = await query<{ isa13: string; gs06: string; created: Date }>(
      `SELECT i.interchange_control AS isa13, s.group_control AS gs06
         FROM edi_interchanges i JOIN edi_transaction_sets s ON s.interchange_id = i.id
        WHERE i.partner_id = $1 ORDER BY i.interchange_control`,
      [partner.id],
    );
    expect(rows.map((row) => Number(row.isa13))).toEqual(Array.from({ length: 20 }, (_, index) => index + 1));
    expect(rows.map((row) => Number(row.gs06))).toEqual(Array.from({ length: 20 }, (_, index) => index + 1));
    const raws = await query<{ raw: Buffer; isa13: string }>(
      `SELECT raw, interchange_control AS isa13 FROM edi_interchanges WHERE partner_id = $1`,
      [partner.id],
    );
    for (const { raw, isa13 } of raws)
      expect(Number(parsed(raw).interchange.header.elements[12]!.value)).toBe(Number(isa13));
  });

  it('when an admin sends an interchange again, the same sets go out under new control numbers as a new file', async () => {
    const { partner } = await arrange();
    const first = await outbound.sendInventoryAdvice(partner);

    const again = await outbound.resend(first.id, null);

    expect(again).toMatchObject({ source: 'resend', resentFrom: first.id, state: 'sent', direction: 'out' });
    expect(Number(again.interchangeControl)).toBeGreaterThan(Number(first.interchangeControl));
    const names = (await outFiles(partner.id)).map((file) => file.name);
    expect(names).toEqual(expect.arrayContaining([first.fileName, again.fileName]));
    const setsOf = async (id: string) => {
      const [row] = await query<{ raw: Buffer }>('SELECT raw FROM edi_interchanges WHERE id = $1', [id]);
      return parsed(row!.raw);
    };
    const [before, after] = [await setsOf(first.id), await setsOf(again.id)];
    expect(after.sets).toEqual(before.sets);
    expect(after.interchange.functionalGroups[0]!.header.elements[5]!.value).not.toBe(
      before.interchange.functionalGroups[0]!.header.elements[5]!.value,
    );
    const audit = await query<{ action: string }>(`SELECT action FROM audit_logs WHERE entity_id = $1`, [first.id]);
    expect(audit.map((entry) => entry.action)).toEqual(['edi.interchange.resent']);
    await expect(outbound.resend('00000000-0000-4000-8000-000000000000', null)).rejects.toMatchObject({ status: 404 });
  });

  it('when an advice waits for its 997 past the partner’s hours, it is counted overdue in /metrics and flagged', async () => {
    const { partner } = await arrange();
    const late = await outbound.sendInventoryAdvice(partner);
    const fresh = await outbound.sendInventoryAdvice(partner);
    await query(`UPDATE edi_interchanges SET created_at = now() - interval '25 hours' WHERE id = $1`, [late.id]);
    const repository = new OutboundRepository(ctx.runtime.db);

    const waiting = await repository.unacknowledgedOf(partner.id);
    const registry = new Registry();
    for (const gauge of ediOutboundGauges(() => repository.unacknowledgedCounts())) registry.registerMetric(gauge);
    const text = await registry.metrics();

    expect(waiting.map((row) => [row.id, row.overdue])).toEqual([
      [late.id, true],
      [fresh.id, false],
    ]);
    const overdue = Number(/wms_edi_outbound_unacknowledged\{overdue="true"\} (\d+)/.exec(text)![1]);
    expect(overdue).toBeGreaterThanOrEqual(1);
    expect(isAcknowledgmentOverdue({ ...late, createdAt: new Date(Date.now() - 25 * 3_600_000) }, partner)).toBe(true);
    expect(isAcknowledgmentOverdue(fresh, partner)).toBe(false);
    expect(isAcknowledgmentOverdue({ ...fresh, createdAt: new Date(0), setCodes: ['997'] }, partner)).toBe(false);
  });

  it('when the subscriptions API is asked, a partner’s own subscription is neither listed, read nor deleted, and a disabled partner’s is inactive', async () => {
    const { partner } = await arrange();
    const viewer = { tenantId: partner.tenantId };

    const listed = await ctx.services.webhooks.list(viewer);
    const read = ctx.services.webhooks.get(partner.subscriptionId!, viewer);
    const deleted = ctx.services.webhooks.remove(partner.subscriptionId!, viewer, null);
    await query(`UPDATE edi_trading_partners SET status = 'disabled', outbound_sets = '{945,997}' WHERE id = $1`, [
      partner.id,
    ]);
    const disabled = (await partners.find(partner.id))!;
    await unitOfWork(ctx.runtime.db, (transaction) => outbound.syncSubscription(disabled, transaction));

    expect(listed.map((subscription) => subscription.id)).not.toContain(partner.subscriptionId);
    await expect(read).rejects.toMatchObject({ status: 404 });
    await expect(deleted).rejects.toMatchObject({ status: 404 });
    const [row] = await query<{ active: boolean; events: string[]; ordered: boolean; kind: string; version: string }>(
      `SELECT active, events, ordered, destination_kind AS kind, api_version AS version FROM webhook_subscriptions WHERE id = $1`,
      [partner.subscriptionId],
    );
    expect(row).toEqual({
      active: false,
      events: ['order.shipped'],
      ordered: true,
      kind: 'edi',
      version: '2026-12-01',
    });
  });
});
