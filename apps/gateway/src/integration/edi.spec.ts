import { X12Parser, type X12Interchange } from 'node-x12';
import {
  ack997,
  arrangeTradingPartner,
  createApiKey,
  createTenantWithWarehouse,
  createTestContext,
  order940,
  waitFor,
  x12Interchange,
  type ArrangedPartner,
  type TestContext,
  type TestGateway,
  type X12GroupSpec,
} from '@wms/testing';

const BASE = '/api/v1/integration/v1';

/**
 * Inbound EDI through `POST /edi` and the ingest worker's engine, against the real gateway, worker,
 * PostgreSQL and Redis: 940s become orders answered by a 997, exactly once; a bad set is rejected alone; a
 * broken envelope is a TA1 and nothing; a partner's 997 marks our outbound interchange acknowledged; a
 * 10,000-order 940 is read to its end.
 */
describe('POST /edi: interchanges read by the engine', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let key: string;
  let tenantId: string;
  let partner: ArrangedPartner;
  let nextControl = 100;

  beforeAll(async () => {
    ctx = await createTestContext('edi-inbound');
    gateway = await ctx.startGateway();
    await ctx.startIngestWorker();
    const { tenant } = await createTenantWithWarehouse(ctx);
    tenantId = tenant.id;
    const created = await createApiKey(ctx, { tenantId });
    key = created.rawKey;
    partner = await arrangeTradingPartner(ctx, { tenantId, apiKeyId: created.id, warehouseCode: 'WH1' });
    for (const sku of ['SKU-1', 'SKU-2'])
      expect((await json('/items', { sku, name: sku, baseUomCode: 'EA' })).status).toBe(200);
    expect((await json('/partners', { code: 'CUST1', name: 'Customer', type: 'customer' })).status).toBe(200);
  }, 120_000);
  afterAll(async () => {
    await ctx?.close();
  });

  function json(path: string, body: unknown): Promise<Response> {
    return fetch(`${gateway.url}${BASE}${path}`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  }

  function send(text: string, headers: Record<string, string> = {}): Promise<Response> {
    return fetch(`${gateway.url}${BASE}/edi`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/edi-x12', ...headers },
      body: text,
    });
  }

  const interchangeOf = (groups: X12GroupSpec[], control = String((nextControl += 1))) =>
    x12Interchange({
      sender: { qualifier: partner.partner.qualifier, id: partner.partner.id, groupCode: partner.partner.groupCode },
      receiver: { qualifier: partner.us.qualifier, id: partner.us.id, groupCode: partner.us.groupCode },
      control,
      groups,
      newlines: true,
    });

  const orderSet = (control: string, referenceNo: string, sku = 'SKU-1') => ({
    code: '940',
    control,
    segments: order940({ referenceNo, customerCode: 'CUST1', lines: [{ sku, qty: 2 }] }),
  });

  /** The 997's AK segments, read back by an independent parser. */
  function acknowledgment(text: string): string[][] {
    const interchange = new X12Parser(true).parse(text) as X12Interchange;
    return interchange.functionalGroups.flatMap((group) =>
      group.transactions.flatMap((set) =>
        set.segments.map((segment) => [segment.tag, ...segment.elements.map((element) => element.value)]),
      ),
    );
  }

  async function query<Row>(sql: string, bind: unknown[]): Promise<Row[]> {
    const [rows] = (await ctx.runtime.db.sequelize.query(sql, { bind })) as [Row[], unknown];
    return rows;
  }

  const orders = async (prefix: string) =>
    (
      await query<{ count: number }>(
        `SELECT count(*)::int AS count FROM sales_orders WHERE tenant_id = $1 AND reference_no LIKE $2`,
        [tenantId, `${prefix}%`],
      )
    )[0]!.count;

  const interchange = async (id: string) =>
    (
      await query<{ state: string; acknowledgment_id: string | null; duplicate_of: string | null }>(
        `SELECT state, acknowledgment_id, duplicate_of FROM edi_interchanges WHERE id = $1`,
        [id],
      )
    )[0]!;

  it('a 940 becomes an order and is answered by a 997 accepting its set, also put in out/', async () => {
    const response = await send(
      interchangeOf([{ functionalId: 'OW', control: '1', sets: [orderSet('0001', 'ONE-1')] }]),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/edi-x12/);
    const text = await response.text();
    expect(acknowledgment(text)).toEqual([
      ['AK1', 'OW', '1'],
      ['AK2', '940', '0001'],
      ['AK5', 'A'],
      ['AK9', 'A', '1', '1', '1'],
    ]);
    expect(await orders('ONE-')).toBe(1);
    const id = response.headers.get('x-interchange-id')!;
    expect((await interchange(id)).state).toBe('accepted');
    const [set] = await query<{ state: string; document_kind: string; document_ref: string }>(
      `SELECT state, document_kind, document_ref FROM edi_transaction_sets WHERE interchange_id = $1`,
      [id],
    );
    expect(set).toEqual({ state: 'accepted', document_kind: 'order', document_ref: 'ONE-1' });
    const out = await query<{ raw: Buffer }>(
      `SELECT i.raw FROM edi_mailbox_files f JOIN edi_interchanges i ON i.id = f.interchange_id
        WHERE f.partner_id = $1 AND f.folder = 'out' AND f.interchange_id = $2`,
      [partner.id, (await interchange(id)).acknowledgment_id],
    );
    expect(out.map((row) => row.raw.toString('latin1'))).toEqual([text]);

    const status = await fetch(`${gateway.url}${BASE}/edi/interchanges/${id}`, { headers: { 'x-api-key': key } });
    expect(status.status).toBe(200);
    const body = (await status.json()) as { data: { state: string; acknowledgment: { content: string } } };
    expect(body.data).toMatchObject({ state: 'accepted', acknowledgment: { content: text } });
  }, 60_000);

  it('the same 940 twice makes one order; the resend is a duplicate answered with the same 997', async () => {
    const text = interchangeOf([{ functionalId: 'OW', control: '2', sets: [orderSet('0001', 'TWICE-1')] }]);
    const first = await send(text);
    const again = await send(text);
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(await again.text()).toBe(await first.text());
    expect(await orders('TWICE-')).toBe(1);
    const resend = await interchange(again.headers.get('x-interchange-id')!);
    expect(resend).toMatchObject({ state: 'duplicate', duplicate_of: first.headers.get('x-interchange-id') });

    // The same group and set control numbers inside a new ISA13: the set is not written again, and accepted.
    const repeated = await send(
      interchangeOf([{ functionalId: 'OW', control: '2', sets: [orderSet('0001', 'TWICE-1')] }]),
    );
    expect(acknowledgment(await repeated.text())).toContainEqual(['AK5', 'A']);
    expect(await orders('TWICE-')).toBe(1);
  }, 60_000);

  it('one bad set of three is a 997 with one AK5 R pointing at its segment, and two orders', async () => {
    const response = await send(
      interchangeOf([
        {
          functionalId: 'OW',
          control: '3',
          sets: [orderSet('0001', 'THREE-1'), orderSet('0002', 'THREE-2', 'NO-SUCH-SKU'), orderSet('0003', 'THREE-3')],
        },
      ]),
    );
    expect(response.status).toBe(200);
    const segments = acknowledgment(await response.text());
    expect(segments.filter((segment) => segment[0] === 'AK5')).toEqual([
      ['AK5', 'A'],
      ['AK5', 'R', '5'],
      ['AK5', 'A'],
    ]);
    // W01 is the 9th segment of the set (ST, W05, N1, N3, N4, N1, W66, LX first); its element 5 holds the sku.
    expect(segments).toContainEqual(['AK3', 'W01', '9', 'LX', '8']);
    expect(segments).toContainEqual(['AK4', '5', '234', '7', 'NO-SUCH-SKU']);
    expect(segments.at(-1)).toEqual(['AK9', 'P', '3', '3', '2']);
    expect(await orders('THREE-')).toBe(2);
    expect((await interchange(response.headers.get('x-interchange-id')!)).state).toBe('partially_accepted');
  }, 60_000);

  it('a repeated referenceNo is a rejected set naming the existing order', async () => {
    const response = await send(
      interchangeOf([{ functionalId: 'OW', control: '4', sets: [orderSet('0001', 'ONE-1')] }]),
    );
    const id = response.headers.get('x-interchange-id')!;
    expect(acknowledgment(await response.text())).toContainEqual(['AK5', 'R', '5']);
    const [set] = await query<{ errors: Array<{ message: string }> }>(
      `SELECT errors FROM edi_transaction_sets WHERE interchange_id = $1`,
      [id],
    );
    expect(set!.errors[0]!.message).toMatch(/DUPLICATE_REFERENCE: .*ONE-1 already exists: SO/);
  }, 60_000);

  it('a broken envelope is answered by a TA1 and creates nothing', async () => {
    const text = interchangeOf([{ functionalId: 'OW', control: '5', sets: [orderSet('0001', 'BROKEN-1')] }]).replace(
      /IEA\*1\*(\d{9})/,
      'IEA*1*999999999',
    );
    const response = await send(text);
    expect(response.status).toBe(200);
    const answer = await response.text();
    expect(answer).toMatch(/~TA1\*\d{9}\*261201\*1200\*R\*001~/);
    const id = response.headers.get('x-interchange-id')!;
    expect((await interchange(id)).state).toBe('unreadable');
    expect(await orders('BROKEN-')).toBe(0);
    expect(await query(`SELECT id FROM edi_transaction_sets WHERE interchange_id = $1`, [id])).toEqual([]);
  }, 60_000);

  it('an inbound 997 marks our outbound interchange and its sets acknowledged, and is answered by no 997', async () => {
    const [outbound] = await query<{ id: string }>(
      `INSERT INTO edi_interchanges (tenant_id, partner_id, direction, source, interchange_control, set_codes, raw,
                                     size_bytes, state)
       VALUES ($1, $2, 'out', 'event', '000000555', '{945}', $3, 3, 'sent') RETURNING id`,
      [tenantId, partner.id, Buffer.from('945')],
    );
    await query(
      `INSERT INTO edi_transaction_sets (interchange_id, tenant_id, partner_id, direction, set_code, functional_id,
                                         group_control, set_control, state)
       VALUES ($1, $2, $3, 'out', '945', 'SW', '555', '0001', 'sent'), ($1, $2, $3, 'out', '945', 'SW', '555', '0002', 'sent')`,
      [outbound!.id, tenantId, partner.id],
    );
    const response = await send(
      interchangeOf([
        {
          functionalId: 'FA',
          control: '6',
          sets: [
            {
              code: '997',
              control: '0001',
              segments: ack997({
                functionalId: 'SW',
                control: '555',
                status: 'A',
                sets: [
                  { code: '945', control: '0001', status: 'A' },
                  { code: '945', control: '0002', status: 'A' },
                ],
              }),
            },
          ],
        },
      ]),
    );
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('');
    const inbound = response.headers.get('x-interchange-id')!;
    const marked = await query<{ state: string; acknowledgment_id: string; acknowledged_at: Date | null }>(
      `SELECT state, acknowledgment_id, acknowledged_at FROM edi_interchanges WHERE id = $1`,
      [outbound!.id],
    );
    expect(marked).toEqual([{ state: 'acknowledged', acknowledgment_id: inbound, acknowledged_at: expect.any(Date) }]);
    const sets = await query<{ state: string }>(
      `SELECT state FROM edi_transaction_sets WHERE interchange_id = $1 ORDER BY set_control`,
      [outbound!.id],
    );
    expect(sets).toEqual([{ state: 'acknowledged' }, { state: 'acknowledged' }]);
    expect(await interchange(inbound)).toMatchObject({ state: 'accepted', acknowledgment_id: null });
  }, 60_000);

  it('refuses a key bound to no partner (403) and a body that is not X12 (415), storing nothing', async () => {
    const stranger = (await createApiKey(ctx, { tenantId })).rawKey;
    const before = (await query<{ count: number }>(`SELECT count(*)::int AS count FROM edi_interchanges`, []))[0]!
      .count;
    const unbound = await fetch(`${gateway.url}${BASE}/edi`, {
      method: 'POST',
      headers: { 'x-api-key': stranger, 'content-type': 'application/edi-x12' },
      body: 'ISA*',
    });
    expect(unbound.status).toBe(403);
    expect(((await unbound.json()) as { code: string }).code).toBe('EDI_PARTNER_REQUIRED');
    const notX12 = await send('{}', { 'content-type': 'application/json' });
    expect(notX12.status).toBe(415);
    const after = (await query<{ count: number }>(`SELECT count(*)::int AS count FROM edi_interchanges`, []))[0]!.count;
    expect(after).toBe(before);
  }, 60_000);

  it('a 10,000-order 940 is written in batches to its end: 10,000 orders, 10,000 accepted sets, one 997', async () => {
    const sets = Array.from({ length: 10_000 }, (_value, index) =>
      orderSet(String(index + 1).padStart(4, '0'), `BIG-${index}`, index % 2 ? 'SKU-1' : 'SKU-2'),
    );
    const response = await send(interchangeOf([{ functionalId: 'OW', control: '7', sets }]));
    expect([200, 202]).toContain(response.status);
    const id =
      response.status === 202
        ? ((await response.json()) as { interchangeId: string }).interchangeId
        : response.headers.get('x-interchange-id')!;
    await waitFor(async () => (await interchange(id)).state === 'accepted', 600_000, 'the 10,000-order 940 read');
    expect(await orders('BIG-')).toBe(10_000);
    const [sets_] = await query<{ count: number }>(
      `SELECT count(*)::int AS count FROM edi_transaction_sets WHERE interchange_id = $1 AND state = 'accepted'`,
      [id],
    );
    expect(sets_!.count).toBe(10_000);
    const [answer] = await query<{ raw: Buffer }>(
      `SELECT a.raw FROM edi_interchanges i JOIN edi_interchanges a ON a.id = i.acknowledgment_id WHERE i.id = $1`,
      [id],
    );
    expect(acknowledgment(answer!.raw.toString('latin1')).at(-1)).toEqual(['AK9', 'A', '10000', '10000', '10000']);
  }, 620_000);
});
