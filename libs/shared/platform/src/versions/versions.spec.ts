import {
  API_VERSIONS,
  DEFAULT_VERSION_POLICY,
  NEWEST_API_VERSION,
  parseDeprecatedVersions,
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
    expect(JSON.stringify(renderForVersion(body, '2026-11-21'))).toBe(
      '{"data":{"lines":[{"lineNo":1,"qtyOrdered":2.5,"sku":"A"}],"totalOnHand":3}}',
    );
  });

  it('when a quantity a double cannot hold is rendered for 2026-11-21, the JSON number has its exact digits', () => {
    const body = { qtyOnHand: '123456789012.3456', qtyAllocated: '4.0000', qtyDelta: '-0.2500' };

    const text = JSON.stringify(renderForVersion(body, '2026-11-21'));

    expect(text).toBe('{"qtyOnHand":123456789012.3456,"qtyAllocated":4,"qtyDelta":-0.25}');
  });

  it('when a body already rendered for 2026-11-21 is rendered again, its exact numbers are kept', () => {
    const once = renderForVersion({ qty: '123456789012.3456' }, '2026-11-21');

    expect(JSON.stringify(renderForVersion(once, '2026-11-21'))).toBe('{"qty":123456789012.3456}');
    expect(renderForVersion(once, NEWEST_API_VERSION)).toEqual({ qty: '123456789012.3456' });
  });

  it('when a request names its version, the header wins over the pin, the pin over the default; unknown is 400', () => {
    expect(requestedVersion(undefined, '2026-11-21', NEWEST_API_VERSION)).toBe('2026-11-21');
    expect(requestedVersion('2026-12-01', '2026-11-21', '2026-11-21')).toBe('2026-12-01');
    expect(requestedVersion(undefined, undefined, '2026-11-21')).toBe('2026-11-21');
    expect(() => requestedVersion('2030-01-01', undefined, '2026-11-21')).toThrow(
      expect.objectContaining({ status: 400, code: 'VALIDATION_FAILED' }),
    );
  });

  it('when the deployment deprecates nothing, no version carries deprecation headers, the oldest neither', () => {
    expect(versionHeaders('2026-11-21', DEFAULT_VERSION_POLICY)).toEqual({ 'Wms-Version': '2026-11-21' });
    expect(versionHeaders(NEWEST_API_VERSION, DEFAULT_VERSION_POLICY)).toEqual({ 'Wms-Version': NEWEST_API_VERSION });
  });

  it('when the deployment deprecates a version, its headers say since when and until when; others have none', () => {
    const policy = {
      defaultVersion: NEWEST_API_VERSION,
      deprecations: parseDeprecatedVersions('2026-11-21=2027-06-01/2029-06-01'),
    };

    expect(versionHeaders('2026-11-21', policy)).toEqual({
      'Wms-Version': '2026-11-21',
      Deprecation: '@1811808000',
      Sunset: 'Fri, 01 Jun 2029 00:00:00 GMT',
      Link: '</docs/changelog>; rel="deprecation"',
    });
    expect(versionHeaders(NEWEST_API_VERSION, policy)).toEqual({ 'Wms-Version': NEWEST_API_VERSION });
  });

  it.each([
    ['2030-01-01=2030-02-01/2033-01-01', 'is not a version'],
    ['2026-12-01=2027-01-01/2030-01-01', 'newest version'],
    ['2026-11-21=2027-02-30/2029-06-01', 'not a calendar day'],
    ['2026-11-21=2027-06-01/2027-05-01', 'must follow'],
    ['2026-11-21=2027-06-01/2028-06-01', 'at least 2028-12-01'],
    ['2026-11-21=2027-06-01/2029-06-01,2026-11-21=2027-06-01/2029-06-01', 'twice'],
    ['2026-11-21:2029-06-01', 'not version='],
  ])('when API_DEPRECATED_VERSIONS is %s, it is refused: %s', (setting, reason) => {
    expect(() => parseDeprecatedVersions(setting)).toThrow(reason);
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
