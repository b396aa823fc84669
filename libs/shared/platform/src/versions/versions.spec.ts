import {
  API_VERSIONS,
  NEWEST_API_VERSION,
  QUANTITY_FIELDS,
  openApiDocumentForVersion,
  parseWithExactQuantities,
  renderForVersion,
  requestedVersion,
  toDecimalString,
  versionHeaders,
} from './index.js';

describe('dated API versions', () => {
  it('when a quantity is written for 2026-12-01, it is a four-place decimal string, digit for digit', () => {
    expect(toDecimalString('12.5')).toBe('12.5000');
    expect(toDecimalString('0012')).toBe('12.0000');
    expect(toDecimalString('-0.25')).toBe('-0.2500');
    expect(toDecimalString('99999999999999.9999')).toBe('99999999999999.9999');
    expect(toDecimalString(2.5)).toBe('2.5000');
    expect(toDecimalString('not a number')).toBe('not a number');
  });

  it('when stored JSON holds a quantity a float cannot, it is read exactly; other numbers stay numbers', () => {
    const data = parseWithExactQuantities<{ lines: { qty: string; lineNo: number }[] }>(
      '{"lines":[{"lineNo":1,"qty":99999999999999.9999}]}',
    );

    expect(data.lines[0]).toEqual({ lineNo: 1, qty: '99999999999999.9999' });
  });

  it('when a body is rendered, the newest version gets strings and 2026-11-21 numbers, at any depth', () => {
    const body = { data: { lines: [{ lineNo: 1, qtyOrdered: '2.5000', sku: 'A' }], totalOnHand: 3 } };

    expect(renderForVersion(body, NEWEST_API_VERSION)).toEqual({
      data: { lines: [{ lineNo: 1, qtyOrdered: '2.5000', sku: 'A' }], totalOnHand: '3.0000' },
    });
    expect(renderForVersion(body, '2026-11-21')).toEqual({
      data: { lines: [{ lineNo: 1, qtyOrdered: 2.5, sku: 'A' }], totalOnHand: 3 },
    });
  });

  it('when a request names its version, the header wins over the pin; an unknown one is 400 naming the known', () => {
    expect(requestedVersion(undefined, '2026-11-21')).toBe('2026-11-21');
    expect(requestedVersion('2026-12-01', '2026-11-21')).toBe('2026-12-01');
    expect(requestedVersion(undefined, undefined)).toBe(NEWEST_API_VERSION);
    expect(() => requestedVersion('2030-01-01', undefined)).toThrow(
      expect.objectContaining({ status: 400, code: 'VALIDATION_FAILED' }),
    );
  });

  it('when a version is deprecated, its headers say when and until when; the newest has only Wms-Version', () => {
    expect(versionHeaders('2026-11-21')).toEqual({
      'Wms-Version': '2026-11-21',
      Deprecation: '@1796083200',
      Sunset: 'Fri, 01 Dec 2028 00:00:00 GMT',
      Link: '</docs/changelog>; rel="deprecation"',
    });
    expect(versionHeaders(NEWEST_API_VERSION)).toEqual({ 'Wms-Version': NEWEST_API_VERSION });
  });

  it("when the OpenAPI document is served per version, answers' quantities are strings only from 2026-12-01", () => {
    const quantity = { type: 'number', description: 'q' };
    const document = {
      info: { title: 't' },
      paths: { '/x': { get: { responses: { 200: { properties: { qty: quantity } } } } } },
      webhooks: { e: { post: { properties: { qtyDelta: quantity } } } },
      components: { schemas: { In: { properties: { qty: quantity } } } },
    };
    const schemaOf = (doc: Record<string, unknown>) => JSON.stringify(doc);

    const newest = openApiDocumentForVersion(document, NEWEST_API_VERSION);
    const oldest = openApiDocumentForVersion(document, API_VERSIONS[0]);

    expect(schemaOf(newest.paths as Record<string, unknown>)).toContain('"type":"string"');
    expect(schemaOf(newest.webhooks as Record<string, unknown>)).toContain('"type":"string"');
    expect(schemaOf(oldest.paths as Record<string, unknown>)).not.toContain('"type":"string"');
    expect(schemaOf(oldest.components as Record<string, unknown>)).toContain('anyOf');
    expect(QUANTITY_FIELDS.has('qty')).toBe(true);
  });
});
