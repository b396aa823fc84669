import type { ControlNumbers } from '../partners/index.js';
import type { TradingPartner } from '../partners/index.js';
import { writeInterchange, x12Dates, type SetBody } from './envelope-writer.js';
import type { Segment } from './segment.js';

/**
 * The acknowledgments we answer inbound interchanges with (docs/edi.md, "Acknowledgments"): a 997 per
 * interchange, one 997 set per functional group read (never for a group of 997s), and a TA1 for an
 * interchange that cannot be read.
 */

/** An element in error (AK4): its position in the segment, its data element number, the AK403 code, the value. */
export interface ElementError {
  position: number;
  /** The X12 data element reference number (e.g. 324 for W05's depositor order number). */
  reference?: string;
  /** AK403: 1 mandatory element missing, 4 too short, 5 too long, 6 invalid character, 7 invalid code value, 8 invalid date. */
  code: string;
  value?: string;
}

/** A segment in error (AK3) and, when known, its element in error (AK4); `message` is for people. */
export interface SetError {
  segment: string;
  /** The segment's position in its set, ST being 1. */
  position: number;
  /** The loop identifier (AK303), e.g. N1 or LX. */
  loop?: string;
  /** AK304: 1 unrecognised segment, 2 unexpected, 3 mandatory segment missing, 8 segment has element errors. */
  code: string;
  element?: ElementError;
  message: string;
}

/** What one set came to: AK2 and its AK5 (A accepted, E accepted with errors, R rejected; AK502 codes). */
export interface SetAcknowledgment {
  code: string;
  control: string;
  status: 'A' | 'E' | 'R';
  /** AK502…: 1 set not supported, 2 trailer missing, 3 ST02≠SE02, 4 SE01 wrong, 5 segments in error. */
  codes: string[];
  errors: SetError[];
}

/** What one functional group came to: AK1, its sets' AK2…AK5, AK9. */
export interface GroupAcknowledgment {
  functionalId: string;
  control: string;
  /** AK901: A accepted, E accepted with errors, P partially accepted, R rejected. */
  status: 'A' | 'E' | 'P' | 'R';
  /** GE01 as sent (the count of the sets the group says it holds). */
  included: number;
  received: number;
  accepted: number;
  /** AK905…: 1 group not supported, 3 trailer missing, 4 GS06≠GE02, 5 GE01 wrong, 6 control number syntax. */
  codes: string[];
  sets: SetAcknowledgment[];
}

/** AK901 from the sets' results when the group itself is sound. */
export function groupStatus(sets: SetAcknowledgment[]): 'A' | 'E' | 'P' | 'R' {
  const accepted = sets.filter((set) => set.status !== 'R').length;
  if (sets.length > 0 && accepted === 0) return 'R';
  if (accepted < sets.length) return 'P';
  return sets.some((set) => set.status === 'E') ? 'E' : 'A';
}

/** The segments of one 997 set (between ST and SE) answering one group. */
export function functionalAcknowledgment(group: GroupAcknowledgment): SetBody {
  const segments: Segment[] = [{ id: 'AK1', elements: [group.functionalId, group.control] }];
  for (const set of group.sets) {
    segments.push({ id: 'AK2', elements: [set.code, set.control] });
    for (const error of set.errors) {
      segments.push({ id: 'AK3', elements: [error.segment, String(error.position), error.loop ?? '', error.code] });
      if (error.element)
        segments.push({
          id: 'AK4',
          elements: [
            String(error.element.position),
            error.element.reference ?? '',
            error.element.code,
            (error.element.value ?? '').slice(0, 99),
          ],
        });
    }
    segments.push({ id: 'AK5', elements: [set.status, ...set.codes.slice(0, 5)] });
  }
  segments.push({
    id: 'AK9',
    elements: [
      group.status,
      String(group.included),
      String(group.received),
      String(group.accepted),
      ...group.codes.slice(0, 5),
    ],
  });
  return { code: '997', segments };
}

/** A 997 interchange answering the groups of one inbound interchange, with our next control numbers. */
export function write997(
  partner: Pick<TradingPartner, 'partner' | 'us' | 'x12Version' | 'usageIndicator' | 'separators'>,
  control: ControlNumbers,
  groups: GroupAcknowledgment[],
  at: Date = new Date(),
): string {
  return writeInterchange(partner, control, groups.map(functionalAcknowledgment), { at });
}

const pad = (value: string, width: number) => value.slice(0, width).padEnd(width, ' ');

/**
 * A TA1 interchange (ISA, TA1, IEA with no group): the interchange `received` (its ISA13, date and time when
 * they could be read) is rejected (TA104 R) for the note code `code` (TA105). Written with our separators
 * for the partner, since the received one's may be what was wrong.
 */
export function writeTa1(
  partner: Pick<TradingPartner, 'partner' | 'us' | 'x12Version' | 'usageIndicator' | 'separators'>,
  interchangeControl: number,
  received: { control: string | null; date: string | null; time: string | null },
  code: string,
  at: Date = new Date(),
): string {
  const { element, component, segment } = partner.separators;
  const { yymmdd, hhmm } = x12Dates(at);
  const ours = String(interchangeControl).padStart(9, '0');
  const isa = [
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
    ours,
    '0',
    partner.usageIndicator,
    component,
  ].join(element);
  const date = received.date && /^\d{6}$/.test(received.date) ? received.date : yymmdd;
  const time = received.time && /^\d{4}$/.test(received.time) ? received.time : hhmm;
  const ta1 = ['TA1', received.control ?? '000000000', date, time, 'R', code].join(element);
  return [isa, ta1, ['IEA', '0', ours].join(element)].map((line) => line + segment).join('');
}
