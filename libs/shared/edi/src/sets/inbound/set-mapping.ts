/**
 * The shapes a mapper reads and answers, structurally the reader's segment (x12/reader.ts), the 997's set
 * error (x12/acknowledgments.ts) and the part of a trading partner it uses: the mappers stand on their own.
 */
export interface SetSegment {
  id: string;
  elements: string[];
  /** Its position in the set, ST being 1. */
  position: number;
}

/** A segment in error (AK3) and its element in error (AK4), as the 997 writer takes it. */
export interface MappingError {
  segment: string;
  position: number;
  loop?: string;
  code: string;
  element?: { position: number; reference?: string; code: string; value?: string };
  message: string;
}

/** What a mapper takes of the trading partner: its default warehouse. */
export interface MappingPartner {
  warehouseCode: string | null;
}

/**
 * What mapping an inbound set gives: the entry of the API's entity it stands for (the same body `POST /orders`
 * or `POST /asn` takes) and, for each field, the segment and element it came from, so a field the API's
 * validation refuses is answered by an AK3/AK4 pointing at what the partner sent.
 */
export interface MappedSet {
  entity: 'orders' | 'asn';
  entry: Record<string, unknown>;
  /** Field path (`lines.2.sku`) → where it came from. */
  fields: Map<string, FieldSource>;
  /** The segment a refusal without a field of its own is pointed at (W05, W06, BSN). */
  header: FieldSource;
}

/** A field's source: its segment (ID, position in the set, loop) and element (position, data element number). */
export interface FieldSource {
  segment: string;
  position: number;
  loop?: string;
  element?: number;
  reference?: string;
  value?: string;
}

/** A set that cannot be mapped at all (a mandatory segment or value missing): its errors. */
export class SetUnmappable extends Error {
  override name = 'SetUnmappable';
  constructor(readonly errors: MappingError[]) {
    super(errors.map((error) => error.message).join('; '));
  }
}

/** Maps one inbound set's body (the segments between ST and SE, positions counted from ST = 1). */
export type SetMapper = (segments: SetSegment[], partner: MappingPartner) => MappedSet;

/** The element at `position` (1-based) of a segment, trimmed; '' when absent. */
export const el = (segment: SetSegment, position: number): string => (segment.elements[position - 1] ?? '').trim();

/** A field's source at an element of a segment. */
export function at(segment: SetSegment, element: number, reference?: string, loop?: string): FieldSource {
  return { segment: segment.id, position: segment.position, loop, element, reference, value: el(segment, element) };
}

/** A field's source as an error of the set: AK3 (code 8, element errors) and AK4 with `code`. */
export function errorAt(source: FieldSource, code: string, message: string): MappingError {
  return {
    segment: source.segment,
    position: source.position,
    loop: source.loop,
    code: source.element ? '8' : '3',
    element: source.element
      ? { position: source.element, reference: source.reference, code, value: source.value }
      : undefined,
    message,
  };
}

/** A mandatory segment that is missing: AK3 code 3 at the position where it was due. */
export function missingSegment(segment: string, position: number, message: string): MappingError {
  return { segment, position, code: '3', message };
}

/** CCYYMMDD as the API's YYYY-MM-DD (left as sent when it is not eight digits: the API's validation refuses it). */
export function isoDate(value: string): string {
  return /^\d{8}$/.test(value) ? `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6, 8)}` : value;
}

/** A quantity element as a number (NaN stays a string, so the API's validation names it). */
export function quantityOf(value: string): number | string {
  const number = Number(value);
  return value !== '' && Number.isFinite(number) ? number : value;
}

/**
 * The item of a line from product ID pairs (qualifier, ID), in this order of preference: SK (the buyer's
 * SKU, our sku), VN (the vendor's item number, which a depositor sets to our sku), then UP (the U.P.C.,
 * when a tenant's skus are their U.P.C.s). Answers the element of the ID taken.
 */
export function productId(
  segment: SetSegment,
  pairs: number[],
  extra: { element: number; qualifier: string } | null = null,
): { value: string; element: number } | null {
  const found = new Map<string, { value: string; element: number }>();
  for (const qualifierAt of pairs) {
    const qualifier = el(segment, qualifierAt);
    const value = el(segment, qualifierAt + 1);
    if (qualifier && value && !found.has(qualifier)) found.set(qualifier, { value, element: qualifierAt + 1 });
  }
  if (extra && el(segment, extra.element) && !found.has(extra.qualifier))
    found.set(extra.qualifier, { value: el(segment, extra.element), element: extra.element });
  return found.get('SK') ?? found.get('VN') ?? found.get('UP') ?? null;
}

/** A party of an N1 loop: its entity code (N101), name (N102), ID (N104), and the N3/N4 that follow it. */
export interface Party {
  n1: SetSegment;
  code: string;
  name: string;
  id: string;
  address: string[];
}

/** The N1 loops of a set (N1 with its N2/N3/N4), in order. */
export function parties(segments: SetSegment[]): Party[] {
  const found: Party[] = [];
  let current: Party | null = null;
  for (const segment of segments) {
    if (segment.id === 'N1') {
      current = { n1: segment, code: el(segment, 1), name: el(segment, 2), id: el(segment, 4), address: [] };
      found.push(current);
    } else if (current && segment.id === 'N3') {
      current.address.push(...segment.elements.map((value) => value.trim()).filter(Boolean));
    } else if (current && segment.id === 'N4') {
      const [city, state, postal, country] = [1, 2, 3, 4].map((position) => el(segment, position));
      current.address.push([city, [state, postal].filter(Boolean).join(' '), country].filter(Boolean).join(', '));
    } else if (segment.id !== 'N2' && segment.id !== 'PER') current = null;
  }
  return found;
}
