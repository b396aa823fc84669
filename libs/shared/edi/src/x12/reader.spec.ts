import { X12Parser } from 'node-x12';
import { x12Interchange, order940, asn943, asn856, type X12Party } from '@wms/testing';
import type { TradingPartner } from '../partners/index.js';
import { checkEnvelope } from '../inbound/index.js';
import { mapShipNotice, mapStockTransferShipment, mapWarehouseShippingOrder } from '../sets/index.js';
import { InterchangeUnreadable, openInterchange, readIsa, type ReadSegment } from './reader.js';
import { write997, writeTa1 } from './acknowledgments.js';

const sender: X12Party = { qualifier: 'ZZ', id: 'PARTNER1', groupCode: 'PGC1' };
const receiver: X12Party = { qualifier: 'ZZ', id: 'WMS1', groupCode: 'WGC1' };

const partner: TradingPartner = {
  id: '00000000-0000-0000-0000-000000000001',
  tenantId: '00000000-0000-0000-0000-000000000002',
  name: 'Partner',
  status: 'active',
  partner: { qualifier: 'ZZ', interchangeId: 'PARTNER1', groupCode: 'PGC1' },
  us: { qualifier: 'ZZ', interchangeId: 'WMS1', groupCode: 'WGC1' },
  x12Version: '004010',
  usageIndicator: 'P',
  separators: { element: '*', component: '>', segment: '~' },
  inboundSets: ['940', '943', '856', '997'],
  outboundSets: ['944', '945', '947', '846', '997'],
  warehouseCode: 'WH1',
  shipFrom: null,
  inventoryAdviceMinutes: null,
  nextInventoryAdviceAt: null,
  ackOverdueHours: 24,
  apiKeyId: null,
  sftpUsername: null,
  subscriptionId: null,
  createdAt: new Date(),
  updatedAt: new Date(),
};

const orderSet = (control: string, referenceNo: string) => ({
  code: '940',
  control,
  segments: order940({ referenceNo, customerCode: 'CUST1', lines: [{ sku: 'SKU-1', qty: 3 }] }),
});

async function all(content: Buffer): Promise<ReadSegment[]> {
  const segments: ReadSegment[] = [];
  for await (const segment of openInterchange(content).segments) segments.push(segment);
  return segments;
}

async function unreadable(text: string): Promise<InterchangeUnreadable> {
  const error = await checkEnvelope(Buffer.from(text), partner).then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(InterchangeUnreadable);
  return error as InterchangeUnreadable;
}

/** The body of one set (between ST and SE), positions from ST = 1, as the engine hands it to a mapper. */
function body(segments: string[][]): ReadSegment[] {
  return segments.map(([id, ...elements], index) => ({ id: id!, elements, position: index + 2 }));
}

describe('the X12 reader', () => {
  it('reads the separators from the ISA, keeps components together, and counts positions', async () => {
    const text = x12Interchange({
      sender,
      receiver,
      control: '42',
      separators: { element: '|', component: '^', segment: '!' },
      newlines: true,
      groups: [
        {
          functionalId: 'OW',
          control: '7',
          sets: [{ code: '940', control: '0001', segments: [['W05', 'N', 'A^B', 'PO']] }],
        },
      ],
    });
    const segments = await all(Buffer.from(text));
    expect(segments.map((segment) => segment.id)).toEqual(['ISA', 'GS', 'ST', 'W05', 'SE', 'GE', 'IEA']);
    expect(segments[3]).toEqual({ id: 'W05', elements: ['N', 'A^B', 'PO'], position: 4 });
    expect(segments[0]!.elements[12]).toBe('000000042');
    expect(readIsa(text).separators).toEqual({ element: '|', component: '^', segment: '!' });
  });

  it('streams a large interchange in chunks without losing a segment across their edges', async () => {
    const sets = Array.from({ length: 2_000 }, (_value, index) =>
      orderSet(String(index + 1).padStart(4, '0'), `R${index}`),
    );
    const text = x12Interchange({
      sender,
      receiver,
      control: '5',
      groups: [{ functionalId: 'OW', control: '1', sets }],
    });
    expect(text.length).toBeGreaterThan(3 * 64 * 1024);
    const segments = await all(Buffer.from(text));
    expect(segments.filter((segment) => segment.id === 'ST')).toHaveLength(2_000);
    expect(segments.filter((segment) => segment.id === 'W01').every((segment) => segment.elements[4] === 'SKU-1')).toBe(
      true,
    );
    expect(segments.at(-1)!.position).toBe(segments.length);
  });

  it('refuses a broken ISA with the TA1 code', async () => {
    const good = x12Interchange({
      sender,
      receiver,
      control: '1',
      groups: [{ functionalId: 'OW', control: '1', sets: [orderSet('0001', 'A')] }],
    });
    expect(() => readIsa('GS*OW~')).toThrow(expect.objectContaining({ code: '024' }));
    expect(() => readIsa(good.slice(0, 80))).toThrow(expect.objectContaining({ code: '023' }));
    // One character fewer in ISA06: the ISA is no longer fixed width.
    expect(() => readIsa(good.replace('PARTNER1       ', 'PARTNER1      '))).toThrow(
      expect.objectContaining({ code: '024' }),
    );
    expect(() => readIsa(good.slice(0, 104) + '**' + good.slice(106))).toThrow(
      expect.objectContaining({ code: '027' }),
    );
    expect(() => readIsa(good.slice(0, 90) + '00000000X' + good.slice(99))).toThrow(
      expect.objectContaining({ code: '018' }),
    );
  });
});

describe('the envelope check', () => {
  const groups = [{ functionalId: 'OW', control: '9', sets: [orderSet('0001', 'A'), orderSet('0002', 'B')] }];

  it('reads a sound interchange: its ISA13 and its groups with their set counts', async () => {
    const readable = await checkEnvelope(
      Buffer.from(x12Interchange({ sender, receiver, control: '77', groups })),
      partner,
    );
    expect(readable.isa.control).toBe('000000077');
    expect(readable.groups).toEqual([
      { functionalId: 'OW', control: '9', received: 2, included: 2, codes: [], problems: [] },
    ]);
  });

  it('answers what makes an interchange unreadable with its TA1 code', async () => {
    expect(
      (await unreadable(x12Interchange({ sender, receiver, control: '1', groups, ieaControl: '000000002' }))).code,
    ).toBe('001');
    expect((await unreadable(x12Interchange({ sender, receiver, control: '1', groups, ieaCount: '2' }))).code).toBe(
      '021',
    );
    expect((await unreadable(x12Interchange({ sender, receiver, control: '1', groups, noIea: true }))).code).toBe(
      '023',
    );
    const stranger = { ...sender, id: 'SOMEONE' };
    expect((await unreadable(x12Interchange({ sender: stranger, receiver, control: '1', groups }))).code).toBe('006');
    expect(
      (await unreadable(x12Interchange({ sender: { ...sender, qualifier: '01' }, receiver, control: '1', groups })))
        .code,
    ).toBe('005');
    expect(
      (await unreadable(x12Interchange({ sender, receiver: { ...receiver, id: 'OTHER' }, control: '1', groups }))).code,
    ).toBe('008');
    expect(
      (await unreadable(x12Interchange({ sender, receiver: { ...receiver, qualifier: '01' }, control: '1', groups })))
        .code,
    ).toBe('007');
    expect((await unreadable('hello')).code).toBe('024');
  });

  it('rejects a group whose GE or GS is broken, not the interchange', async () => {
    const broken = await checkEnvelope(
      Buffer.from(
        x12Interchange({
          sender,
          receiver,
          control: '3',
          groups: [
            { ...groups[0]!, geControl: '8' },
            { functionalId: 'OW', control: '10', sets: [orderSet('0001', 'C')], geCount: '4' },
            { functionalId: 'OW', control: '11', sets: [orderSet('0001', 'D')], senderCode: 'NOT-THEM' },
            { functionalId: 'OW', control: '12', sets: [orderSet('0001', 'E')] },
          ],
        }),
      ),
      partner,
    );
    expect(broken.groups.map((group) => group.codes)).toEqual([['4'], ['5'], ['1'], []]);
  });
});

describe('the inbound mappings', () => {
  it('maps a 940 to the order POST /orders takes, each field pointing at its segment and element', () => {
    const mapped = mapWarehouseShippingOrder(
      body(
        order940({
          referenceNo: 'SO-1',
          customerCode: 'CUST1',
          warehouseCode: 'WH9',
          requiredDate: '2026-12-24',
          lines: [
            { sku: 'A', qty: 2 },
            { sku: 'B', qty: 1.5, uom: 'KG', qualifier: 'VN' },
          ],
        }),
      ),
      partner,
    );
    expect(mapped.entity).toBe('orders');
    expect(mapped.entry).toEqual({
      warehouseCode: 'WH9',
      customerCode: 'CUST1',
      referenceNo: 'SO-1',
      requiredDate: '2026-12-24',
      shipTo: { name: 'Ship To Store 12', address: '1 Main Street\nSpringfield, IL 62701, US' },
      lines: [
        { lineNo: 1, sku: 'A', uomCode: 'EA', qtyOrdered: 2 },
        { lineNo: 2, sku: 'B', uomCode: 'KG', qtyOrdered: 1.5 },
      ],
    });
    expect(mapped.fields.get('referenceNo')).toMatchObject({ segment: 'W05', position: 2, element: 2 });
    expect(mapped.fields.get('lines.1.sku')).toMatchObject({ segment: 'W01', element: 5, value: 'B', loop: 'LX' });
  });

  it("takes the partner's warehouse when the 940 names none", () => {
    const mapped = mapWarehouseShippingOrder(
      body(order940({ referenceNo: 'SO-2', customerCode: 'C', lines: [{ sku: 'A', qty: 1 }] })),
      partner,
    );
    expect(mapped.entry.warehouseCode).toBe('WH1');
  });

  it('maps a 943 and an 856 to the ASN POST /asn takes, lots included', () => {
    const asn = {
      referenceNo: 'SHIP-1',
      supplierCode: 'SUP1',
      warehouseCode: 'WH1',
      expectedDate: '2026-12-10',
      lines: [
        { sku: 'A', qty: 5, lotNo: 'L1' },
        { sku: 'B', qty: 2 },
      ],
    };
    const expected = {
      warehouseCode: 'WH1',
      supplierCode: 'SUP1',
      referenceNo: 'SHIP-1',
      expectedDate: '2026-12-10',
      lines: [
        { lineNo: 1, sku: 'A', uomCode: 'EA', expectedQty: 5, lotNo: 'L1' },
        { lineNo: 2, sku: 'B', uomCode: 'EA', expectedQty: 2 },
      ],
    };
    expect(mapStockTransferShipment(body(asn943(asn)), partner).entry).toEqual(expected);
    expect(mapShipNotice(body(asn856(asn)), partner).entry).toEqual(expected);
  });
});

describe('the acknowledgment writers', () => {
  it('writes a 997 that an independent parser reads back: AK1, AK2/AK3/AK4/AK5 per set, AK9', () => {
    const text = write997(partner, { interchange: 12, group: 34 }, [
      {
        functionalId: 'OW',
        control: '9',
        status: 'P',
        included: 2,
        received: 2,
        accepted: 1,
        codes: [],
        sets: [
          { code: '940', control: '0001', status: 'A', codes: [], errors: [] },
          {
            code: '940',
            control: '0002',
            status: 'R',
            codes: ['5'],
            errors: [
              {
                segment: 'W01',
                position: 12,
                loop: 'LX',
                code: '8',
                element: { position: 5, reference: '234', code: '7', value: 'NOPE' },
                message: 'unknown sku',
              },
            ],
          },
        ],
      },
    ]);
    const interchange = new X12Parser(true).parse(text) as import('node-x12').X12Interchange;
    expect(interchange.header.valueOf(6)!.trim()).toBe('WMS1');
    expect(Number(interchange.header.valueOf(13))).toBe(12);
    const [group] = interchange.functionalGroups;
    expect(group!.header.valueOf(1)).toBe('FA');
    const segments = group!.transactions[0]!.segments.map((segment) => [
      segment.tag,
      ...segment.elements.map((e) => e.value),
    ]);
    expect(segments).toEqual([
      ['AK1', 'OW', '9'],
      ['AK2', '940', '0001'],
      ['AK5', 'A'],
      ['AK2', '940', '0002'],
      ['AK3', 'W01', '12', 'LX', '8'],
      ['AK4', '5', '234', '7', 'NOPE'],
      ['AK5', 'R', '5'],
      ['AK9', 'P', '2', '2', '1'],
    ]);
  });

  it('writes a TA1 rejecting the interchange with its note code, in a fixed-width ISA', () => {
    const text = writeTa1(partner, 5, { control: '000000077', date: '261201', time: '1200' }, '001');
    expect(readIsa(text).control).toBe('000000005');
    expect(text.split('~').slice(1, 3)).toEqual(['TA1*000000077*261201*1200*R*001', 'IEA*0*000000005']);
  });
});
