/**
 * One segment and one set as the advices build them: the envelope writer's `Segment` and `SetBody` in shape
 * (this folder stands on its own; outbound/ hands the sets to `writeInterchange`).
 */
export interface AdviceSegment {
  id: string;
  elements: string[];
}

export interface AdviceSet {
  code: string;
  segments: AdviceSegment[];
}

/** Decimal places the service keeps of a quantity (numeric(18,4)); sums are exact at this scale. */
const SCALE = 4;
const FACTOR = 10n ** BigInt(SCALE);

/** A quantity as the event or the inquiry gives it: an exact decimal string ("12.5000") or a number. */
export type Quantity = string | number;

function decimalText(value: Quantity): string {
  if (typeof value === 'string') return value.trim();
  if (!Number.isFinite(value)) throw new Error(`quantity ${value} is not a number`);
  // Four places at most are kept: toFixed never writes an exponent below 1e21.
  return value.toFixed(SCALE);
}

function scaled(value: Quantity): bigint {
  const text = decimalText(value);
  const match = /^(-?)(\d*)(?:\.(\d*))?$/.exec(text);
  if (!match || (match[2] === '' && !match[3])) throw new Error(`quantity ${text} is not a decimal`);
  const fraction = (match[3] ?? '').padEnd(SCALE, '0');
  if (fraction.length > SCALE && /[1-9]/.test(fraction.slice(SCALE)))
    throw new Error(`quantity ${text} has more than ${SCALE} decimal places`);
  const units = BigInt(match[2] || '0') * FACTOR + BigInt(fraction.slice(0, SCALE) || '0');
  return match[1] === '-' ? -units : units;
}

function fromScaled(units: bigint): string {
  const negative = units < 0n;
  const magnitude = negative ? -units : units;
  const whole = (magnitude / FACTOR).toString();
  const fraction = (magnitude % FACTOR).toString().padStart(SCALE, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/**
 * A quantity as X12's R (decimal) type writes it: no exponent, no leading plus, no trailing zeros after the
 * point and no point without decimals ("12.5000" → "12.5", "10.0000" → "10", "-0.2500" → "-0.25").
 */
export function x12Decimal(value: Quantity): string {
  return fromScaled(scaled(value));
}

/** The exact sum of quantities, written as X12's R type. */
export function x12Sum(values: Quantity[]): string {
  return fromScaled(values.reduce<bigint>((sum, value) => sum + scaled(value), 0n));
}

/** Whether a quantity is below zero. */
export function isNegative(value: Quantity): boolean {
  return scaled(value) < 0n;
}

/** The magnitude of a quantity, as X12's R type. */
export function x12Magnitude(value: Quantity): string {
  const units = scaled(value);
  return fromScaled(units < 0n ? -units : units);
}

/** A segment from its ID and elements (null and undefined written as empty elements). */
export function segment(id: string, ...elements: Array<string | number | null | undefined>): AdviceSegment {
  return { id, elements: elements.map((value) => (value === null || value === undefined ? '' : String(value))) };
}

/** The N1 (and N3/N4 when given) of a party; `party` holds name, code, address, city, state, postalCode, country. */
export function partySegments(
  entity: string,
  party: Record<string, string | null | undefined> | null,
): AdviceSegment[] {
  if (!party) return [];
  const name = party.name ?? party.code ?? '';
  if (!name) return [];
  const out: AdviceSegment[] = [
    party.code ? segment('N1', entity, name, '91', party.code) : segment('N1', entity, name),
  ];
  if (party.address) out.push(segment('N3', party.address));
  if (party.city || party.state || party.postalCode || party.country)
    out.push(segment('N4', party.city, party.state, party.postalCode, party.country));
  return out;
}
