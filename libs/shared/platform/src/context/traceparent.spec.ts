import { childTraceparent, parseTraceparent } from './traceparent.js';

describe('W3C traceparent', () => {
  const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';

  it('when the header is well formed, its trace id, parent id and sampled flag are read', () => {
    expect(parseTraceparent(`00-${traceId}-00f067aa0ba902b7-01`)).toEqual({
      traceId,
      parentId: '00f067aa0ba902b7',
      sampled: true,
    });
    expect(parseTraceparent(`00-${traceId}-00f067aa0ba902b7-00`)?.sampled).toBe(false);
  });

  it('when a later version adds fields, the known ones are still read', () => {
    expect(parseTraceparent(`cc-${traceId}-00f067aa0ba902b7-01-what-the-future-holds`)?.traceId).toBe(traceId);
  });

  it.each([
    ['upper-case hex', `00-${traceId.toUpperCase()}-00f067aa0ba902b7-01`],
    ['version ff', `ff-${traceId}-00f067aa0ba902b7-01`],
    ['an all-zero trace id', `00-${'0'.repeat(32)}-00f067aa0ba902b7-01`],
    ['an all-zero parent id', `00-${traceId}-0000000000000000-01`],
    ['a short trace id', `00-${traceId.slice(1)}-00f067aa0ba902b7-01`],
    ['extra fields on version 00', `00-${traceId}-00f067aa0ba902b7-01-extra`],
    ['garbage', 'not a trace'],
  ])('when the header has %s, it is ignored', (_case, header) => {
    expect(parseTraceparent(header)).toBeUndefined();
  });

  it('a child traceparent keeps the trace id under a new span id of its own', () => {
    const child = childTraceparent(traceId);
    expect(child).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
    expect(parseTraceparent(child)?.traceId).toBe(traceId);
    expect(childTraceparent(traceId)).not.toBe(child);
  });
});
