import { QueryTypes } from 'sequelize';
import { X12Parser, type X12Interchange } from 'node-x12';
import SftpClient from 'ssh2-sftp-client';
import { queuePrefix } from '@wms/platform';
import { EdiInboxService, createEdiQueue, type EdiQueue } from '@wms/edi';
import {
  ack997,
  createTestContext,
  integratorOf,
  order940,
  request,
  startAppProcess,
  startTestWebhookWorker,
  waitFor,
  x12Interchange,
  type AppProcess,
  type Integrator,
  type TestContext,
  type TestGateway,
  type X12SetSpec,
} from '@wms/testing';
import { startEdiSftp, type EdiSftpServer } from './edi-sftp.js';

/**
 * EDI across the processes, as a trading partner meets it: an admin creates the partner and its SFTP password
 * through the admin API; the partner drops 940s into in/ of the hosted SFTP endpoint; the ingest worker (a
 * process of its own, killed with SIGKILL mid-file once) writes the orders and puts the 997 into out/; the
 * order shipped by the staff operations becomes a 945 in out/ that an independent parser (node-x12) reads back;
 * the partner's 997 for it marks it acknowledged.
 */
describe('EDI end to end: SFTP in, orders, 997 and 945 out', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let worker: AppProcess | undefined;
  let sftp: EdiSftpServer;
  let queue: EdiQueue;
  let integrator: Integrator;
  let partner: { id: string; sftpUsername: string; password: string };
  const clients: SftpClient[] = [];
  const SENDER = { qualifier: 'ZZ', id: 'ACMERETAIL', groupCode: 'ACMEGS' };
  const US = { qualifier: 'ZZ', id: 'WMSWAREHOUSE', groupCode: 'WMSGS' };

  const startWorker = async () => (worker = await startAppProcess('ingest-worker', ctx.env));

  beforeAll(async () => {
    ctx = await createTestContext('edi-end-to-end');
    gateway = await ctx.startGateway();
    await startWorker();
    startTestWebhookWorker(ctx);
    queue = createEdiQueue({ connection: ctx.runtime.redis, prefix: queuePrefix(ctx.runtime.config) });
    sftp = await startEdiSftp(ctx.runtime, {
      inbox: new EdiInboxService(ctx.runtime.db, queue, ctx.runtime.logger),
      port: 0,
      host: '127.0.0.1',
    });
    integrator = await integratorOf(gateway.url, 'EDIE2E');
    const { call } = integrator;
    for (const sku of ['SKU-1', 'SKU-2'])
      expect((await call('POST', '/items', { sku, name: sku, baseUomCode: 'EA' })).status).toBe(200);
    expect((await call('POST', '/partners', { code: 'CUST1', name: 'Customer', type: 'customer' })).status).toBe(200);
    expect((await call('POST', '/partners', { code: 'SUP1', name: 'Supplier', type: 'supplier' })).status).toBe(200);
    expect(
      (
        await call('POST', '/locations', {
          warehouseCode: 'WH1',
          code: 'A-01',
          zone: 'A',
          type: 'storage',
          pickFace: true,
        })
      ).status,
    ).toBe(200);
    const admin = (method: string, path: string, body?: unknown) =>
      request<Record<string, unknown>>(gateway.url, method, `/api/v1/edi/partners${path}`, {
        token: integrator.adminToken,
        body,
      });
    const created = await admin('POST', '', {
      tenantId: integrator.tenantId,
      name: 'Acme Retail',
      partner: { qualifier: SENDER.qualifier, interchangeId: SENDER.id, groupCode: SENDER.groupCode },
      us: { qualifier: US.qualifier, interchangeId: US.id, groupCode: US.groupCode },
      warehouseCode: 'WH1',
    });
    expect([created.status, created.body]).toEqual([201, expect.objectContaining({ name: 'Acme Retail' })]);
    const secret = await admin('POST', `/${String(created.body.id)}/sftp/password`);
    expect(secret.status).toBe(200);
    partner = {
      id: String(created.body.id),
      sftpUsername: String(secret.body.username),
      password: String(secret.body.password),
    };
  }, 180_000);

  afterAll(async () => {
    await Promise.allSettled(clients.map((client) => client.end()));
    await sftp?.close();
    await queue?.close();
    await worker?.kill();
    await ctx?.close();
  });

  async function signIn(): Promise<SftpClient> {
    const client = new SftpClient();
    clients.push(client);
    await client.connect({
      host: '127.0.0.1',
      port: sftp.port,
      username: partner.sftpUsername,
      password: partner.password,
      readyTimeout: 10_000,
      retries: 0,
    });
    return client;
  }

  const interchange = (control: string, functionalId: string, sets: X12SetSpec[]) =>
    x12Interchange({
      sender: SENDER,
      receiver: US,
      control,
      groups: [{ functionalId, control: String(Number(control)), sets }],
      newlines: true,
    });

  const orderSet = (index: number, referenceNo: string): X12SetSpec => ({
    code: '940',
    control: String(index).padStart(4, '0'),
    segments: order940({ referenceNo, customerCode: 'CUST1', lines: [{ sku: 'SKU-1', qty: 2 }] }),
  });

  const outFiles = async (client: SftpClient) => (await client.list('/out')).map((file) => file.name).sort();

  const parse = (text: string) => new X12Parser(true).parse(text) as X12Interchange;
  /** Every segment of the interchange's first set, as [tag, ...element values], read by node-x12. */
  const segmentsOf = (text: string) =>
    parse(text).functionalGroups[0]!.transactions[0]!.segments.map((segment) => [
      segment.tag,
      ...segment.elements.map((element) => element.value),
    ]);

  const ordersNamed = async (prefix: string) =>
    (
      await ctx.runtime.db.sequelize.query<{ n: number; distinct: number }>(
        `SELECT count(*)::int AS n, count(DISTINCT reference_no)::int AS "distinct"
           FROM sales_orders WHERE tenant_id = $1 AND reference_no LIKE $2`,
        { bind: [integrator.tenantId, `${prefix}%`], type: QueryTypes.SELECT },
      )
    )[0]!;

  const interchangeState = async (fileName: string) =>
    (
      await ctx.runtime.db.sequelize.query<{ id: string; state: string; acknowledgment_id: string | null }>(
        `SELECT id, state, acknowledgment_id FROM edi_interchanges
          WHERE partner_id = $1 AND direction = 'in' AND file_name = $2`,
        { bind: [partner.id, fileName], type: QueryTypes.SELECT },
      )
    )[0];

  it('a 940 dropped into in/ becomes an order, leaves in/ for archive/ and is answered by a 997 in out/', async () => {
    const client = await signIn();
    const text = interchange('000000101', 'OW', [orderSet(1, 'SFTP-1')]);

    await client.put(Buffer.from(text), '/in/orders-101.x12');
    await waitFor(async () => (await interchangeState('orders-101.x12'))?.state === 'accepted', 60_000);

    expect((await ordersNamed('SFTP-1')).n).toBe(1);
    expect(await client.list('/in')).toEqual([]);
    expect((await client.list('/archive')).map((file) => file.name)).toEqual(['orders-101.x12']);
    const out = await outFiles(client);
    expect(out).toHaveLength(1);
    const ack = segmentsOf(String(await client.get(`/out/${out[0]!}`)));
    expect(ack.find(([tag]) => tag === 'AK1')).toEqual(['AK1', 'OW', '101']);
    expect(ack.find(([tag]) => tag === 'AK5')?.[1]).toBe('A');
    expect(ack.find(([tag]) => tag === 'AK9')?.[1]).toBe('A');
    await client.rename(`/out/${out[0]!}`, `/archive/${out[0]!}`);
  });

  it('the order shipped puts a 945 in out/ that an independent parser reads back, and the partner’s 997 acknowledges it', async () => {
    const client = await signIn();
    await client.put(Buffer.from(interchange('000000102', 'OW', [orderSet(1, 'SHIP-1')])), '/in/orders-102.x12');
    await waitFor(async () => (await interchangeState('orders-102.x12'))?.state === 'accepted', 60_000);
    for (const name of await outFiles(client)) await client.rename(`/out/${name}`, `/archive/${name}`);
    const { call, staff } = integrator;
    const ok = async <T>(answer: Promise<{ status: number; body: T }>) => {
      const { status, body } = await answer;
      if (status >= 300) throw new Error(`answered ${status}: ${JSON.stringify(body)}`);
      return body as Record<string, unknown> & T;
    };
    // Stock for the order: an ASN received in full.
    const asn = await ok(
      call('POST', '/asn', {
        warehouseCode: 'WH1',
        supplierCode: 'SUP1',
        expectedDate: '2030-01-15',
        referenceNo: 'STOCK-1',
        lines: [{ lineNo: 1, sku: 'SKU-1', uomCode: 'EA', expectedQty: 10 }],
      }),
    );
    const asnNo = String((asn.data as Record<string, unknown>).asnNo);
    await ok(
      call('POST', '/grn', {
        warehouseCode: 'WH1',
        asnNo,
        lines: [{ asnLineNo: 1, sku: 'SKU-1', uomCode: 'EA', qty: 10 }],
      }),
    );
    const orders = await ok(call('GET', '/orders?referenceNo=SHIP-1'));
    const orderNo = String((orders.data as unknown as Array<Record<string, unknown>>)[0]!.orderNo);
    await ok(staff('POST', `/orders/${orderNo}/allocate`));
    const released = await ok(staff<{ pickTasks: Array<{ id: string }> }>('POST', `/orders/${orderNo}/release`));
    for (const task of released.pickTasks) await ok(staff('POST', `/pick-tasks/${String(task.id)}/confirm`, {}));
    await ok(staff('POST', `/orders/${orderNo}/ship`, { carrier: 'UPSN', trackingNo: '1Z999AA10123456784' }));

    await waitFor(async () => (await outFiles(client)).some((name) => name.startsWith('945_')), 60_000);
    const name = (await outFiles(client)).find((file) => file.startsWith('945_'))!;
    const advice = String(await client.get(`/out/${name}`));
    const segments = segmentsOf(advice);
    expect(segments.find(([tag]) => tag === 'W06')?.[2]).toBe('SHIP-1');
    expect(segments.filter(([tag]) => tag === 'W12')).toHaveLength(1);
    const w12 = segments.find(([tag]) => tag === 'W12')!;
    expect(w12).toContain('SKU-1');
    expect(w12).toContain('2');
    expect(segments.some((segment) => segment.includes('1Z999AA10123456784'))).toBe(true);

    // The partner acknowledges our group: the 945 is acknowledged.
    const ours = parse(advice);
    const group = ours.functionalGroups[0]!;
    const groupControl = group.header.valueOf(6)!;
    const setControl = group.transactions[0]!.header.valueOf(2)!;
    const ackText = interchange('000000103', 'FA', [
      {
        code: '997',
        control: '0001',
        segments: ack997({
          functionalId: 'SW',
          control: groupControl,
          sets: [{ code: '945', control: setControl, status: 'A' }],
          status: 'A',
        }),
      },
    ]);
    await client.put(Buffer.from(ackText), '/in/ack-103.x12');
    await waitFor(async () => {
      const rows = await ctx.runtime.db.sequelize.query<{ state: string }>(
        `SELECT i.state FROM edi_interchanges i JOIN edi_mailbox_files f ON f.interchange_id = i.id
          WHERE f.partner_id = $1 AND f.name = $2`,
        { bind: [partner.id, name], type: QueryTypes.SELECT },
      );
      return rows[0]?.state === 'acknowledged';
    }, 60_000);
  }, 180_000);

  it('kill -9 of the ingest worker in the middle of a file loses and doubles nothing', async () => {
    const ORDERS = 1_500;
    const client = await signIn();
    const sets = Array.from({ length: ORDERS }, (_, index) => orderSet(index + 1, `KILL-${index + 1}`));
    await client.put(Buffer.from(interchange('000000104', 'OW', sets)), '/in/orders-104.x12');

    // Some batches written, not all: then the worker dies without a word.
    await waitFor(
      () => ordersNamed('KILL-'),
      ({ n }) => n > 0,
      { timeoutMs: 60_000, intervalMs: 20, what: 'the first batch' },
    );
    await worker!.kill('SIGKILL');
    const atKill = (await ordersNamed('KILL-')).n;
    expect(atKill).toBeLessThan(ORDERS);
    await startWorker();

    await waitFor(async () => (await interchangeState('orders-104.x12'))?.state === 'accepted', 120_000);
    expect(await ordersNamed('KILL-')).toEqual({ n: ORDERS, distinct: ORDERS });
    const [{ sets: setRows }] = await ctx.runtime.db.sequelize.query<{ sets: number }>(
      `SELECT count(*)::int AS sets FROM edi_transaction_sets s JOIN edi_interchanges i ON i.id = s.interchange_id
        WHERE i.partner_id = $1 AND i.file_name = 'orders-104.x12' AND s.direction = 'in'`,
      { bind: [partner.id], type: QueryTypes.SELECT },
    );
    expect(setRows).toBe(ORDERS);
    // One 997 for the file, in out/ once.
    const acknowledgments = await ctx.runtime.db.sequelize.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM edi_interchanges a
        WHERE a.id = (SELECT acknowledgment_id FROM edi_interchanges WHERE partner_id = $1 AND file_name = 'orders-104.x12')`,
      { bind: [partner.id], type: QueryTypes.SELECT },
    );
    expect(acknowledgments[0]!.n).toBe(1);
    const ack = (await outFiles(client)).filter((file) => file.startsWith('997_'));
    expect(ack).toHaveLength(1);
    const segments = segmentsOf(String(await client.get(`/out/${ack[0]!}`)));
    expect(segments.filter(([tag]) => tag === 'AK5').every(([, status]) => status === 'A')).toBe(true);
    expect(segments.find(([tag]) => tag === 'AK9')).toEqual([
      'AK9',
      'A',
      String(ORDERS),
      String(ORDERS),
      String(ORDERS),
    ]);
  }, 240_000);
});
