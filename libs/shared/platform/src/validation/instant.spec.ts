import { isCursorTime, isoInstant, isoInstantDate } from './instant.js';

describe('the times a request may name', () => {
  it.each(['0000-01-01T00:00:00Z', '-000001-01-01T00:00:00Z', '+275760-09-13T00:00:00Z', '1969-12-31T23:59:59.999Z'])(
    '%s is refused as text and as a date, with the range in the message',
    (value) => {
      const asText = isoInstant().label('since').validate(value);
      const asDate = isoInstantDate().label('from').validate(value);

      expect(asText.error?.message).toBe('"since" must be an ISO 8601 time from 1970-01-01 to 9999-12-31');
      expect(asDate.error?.message).toBe('"from" must be an ISO 8601 time from 1970-01-01 to 9999-12-31');
    },
  );

  it('the first and last times of the range are taken, converted to UTC', () => {
    expect(isoInstant().validate('1970-01-01T01:00:00+01:00').value).toBe('1970-01-01T00:00:00.000Z');
    expect(isoInstant().validate('9999-12-31T23:59:59.999Z').value).toBe('9999-12-31T23:59:59.999Z');
  });

  it('a cursor time is a calendar time to the microsecond in the range, as the lists write it', () => {
    expect(isCursorTime('2026-12-01T10:11:12.123456Z')).toBe(true);
    expect(isCursorTime('2026-12-01T10:11:12Z')).toBe(true);
    for (const forged of [
      '12',
      'now',
      '2026-02-30T00:00:00.000000Z',
      '2026-01-01T24:00:00Z',
      '0000-01-01T00:00:00Z',
      12,
    ])
      expect(isCursorTime(forged)).toBe(false);
  });
});
