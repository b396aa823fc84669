import type { ControlNumbers } from '../partners/index.js';
import type { Separators, TradingPartner } from '../partners/index.js';
import { FUNCTIONAL_ID, type Segment } from './segment.js';

/** One transaction set to write: its code and the segments between its ST and SE. */
export interface SetBody {
  code: string;
  segments: Segment[];
}

/** The characters an element may not hold when written with these separators. */
function forbidden(separators: Separators): RegExp {
  const chars = [separators.element, separators.component, separators.segment].map(
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return new RegExp(`[${chars.join('')}\\r\\n]`, 'g');
}

const pad = (value: string, width: number) => value.slice(0, width).padEnd(width, ' ');
const digits = (value: number, width: number) => String(value).padStart(width, '0');

/** YYMMDD, CCYYMMDD and HHMM of an instant in UTC. */
export function x12Dates(at: Date): { yymmdd: string; ccyymmdd: string; hhmm: string } {
  const iso = at.toISOString();
  return {
    ccyymmdd: iso.slice(0, 10).replaceAll('-', ''),
    yymmdd: iso.slice(2, 10).replaceAll('-', ''),
    hhmm: iso.slice(11, 16).replace(':', ''),
  };
}

/**
 * Writes one interchange of one functional group to a partner: ISA (fixed width, our ID as the sender), GS,
 * each set between ST and SE (ST02 numbered from 0001; SE01 counting ST and SE), GE and IEA, with the
 * partner's separators. An element holding a separator has it replaced by a space, so the file stays readable.
 * All sets must share a functional group (one GS01).
 */
export function writeInterchange(
  partner: Pick<TradingPartner, 'partner' | 'us' | 'x12Version' | 'usageIndicator' | 'separators'>,
  control: ControlNumbers,
  sets: SetBody[],
  options: { at?: Date; acknowledgmentRequested?: boolean } = {},
): string {
  if (sets.length === 0) throw new Error('an interchange holds at least one transaction set');
  const functionalId = FUNCTIONAL_ID[sets[0]!.code];
  if (!functionalId || sets.some((set) => FUNCTIONAL_ID[set.code] !== functionalId))
    throw new Error('one interchange is written per functional group');
  const { element, component, segment } = partner.separators;
  const clean = forbidden(partner.separators);
  const line = (id: string, elements: string[]) => {
    const values = elements.map((value) => value.replace(clean, ' ').trim());
    while (values.length > 0 && values[values.length - 1] === '') values.pop();
    return [id, ...values].join(element) + segment;
  };
  const { yymmdd, ccyymmdd, hhmm } = x12Dates(options.at ?? new Date());
  const isa13 = digits(control.interchange, 9);
  const out: string[] = [];
  // ISA is fixed width: its elements are written as they are (padded), never trimmed.
  out.push(
    [
      'ISA',
      '00',
      pad('', 10),
      '00',
      pad('', 10),
      pad(partner.us.qualifier, 2),
      pad(partner.us.interchangeId, 15),
      pad(partner.partner.qualifier, 2),
      pad(partner.partner.interchangeId, 15),
      yymmdd,
      hhmm,
      'U',
      partner.x12Version.slice(0, 5),
      isa13,
      options.acknowledgmentRequested ? '1' : '0',
      partner.usageIndicator,
      component,
    ].join(element) + segment,
  );
  out.push(
    line('GS', [
      functionalId,
      partner.us.groupCode,
      partner.partner.groupCode,
      ccyymmdd,
      hhmm,
      String(control.group),
      'X',
      partner.x12Version,
    ]),
  );
  sets.forEach((set, index) => {
    const st02 = digits(index + 1, 4);
    out.push(line('ST', [set.code, st02]));
    for (const body of set.segments) out.push(line(body.id, body.elements));
    out.push(line('SE', [String(set.segments.length + 2), st02]));
  });
  out.push(line('GE', [String(sets.length), String(control.group)]));
  out.push(line('IEA', ['1', isa13]));
  return out.join('');
}
