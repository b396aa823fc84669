import type { TradingPartner } from '../partners/index.js';
import { FUNCTIONAL_ID } from '../x12/index.js';
import { InterchangeUnreadable, openInterchange, type IsaHeader } from '../x12/index.js';

/**
 * The first pass over an inbound interchange (docs/edi.md, "Acknowledgments"): its envelopes alone, streamed,
 * before anything is written, so an interchange that cannot be read creates nothing. What is wrong with the
 * interchange itself (ISA, IEA, sender, receiver, structure) is a TA1; what is wrong with a group's GS or GE
 * rejects that group in the 997 (AK9); a set's ST/SE is checked while the sets are read (AK5).
 */

/** A functional group as its envelope says, and the AK9 codes its GS/GE earn (none: the group is sound). */
export interface GroupEnvelope {
  functionalId: string;
  control: string;
  /** ST segments seen in the group. */
  received: number;
  /** GE01 as sent, or the sets seen when it is not a number. */
  included: number;
  codes: string[];
  /** Why, for people. */
  problems: string[];
}

export interface ReadableInterchange {
  isa: IsaHeader;
  groups: GroupEnvelope[];
}

/** The ISA15 values: production, test. */
const USAGE = new Set(['P', 'T']);

/** The group functional IDs a partner may send: of its inbound sets, and FA (its 997s). */
function acceptedFunctionalIds(partner: TradingPartner): Set<string> {
  return new Set(partner.inboundSets.map((code) => FUNCTIONAL_ID[code]).filter((id): id is string => Boolean(id)));
}

/** Checks the ISA's parties against the partner's and ours; throws the TA1's code (005–008, 020). */
function checkParties(isa: IsaHeader, partner: TradingPartner): void {
  const e = isa.elements;
  const unreadable = (code: string, message: string) => new InterchangeUnreadable(code, message, isa.control);
  if (e[4] !== partner.partner.qualifier)
    throw unreadable('005', `ISA05 ${e[4]} is not the partner's qualifier ${partner.partner.qualifier}`);
  if (e[5] !== partner.partner.interchangeId)
    throw unreadable('006', `ISA06 ${e[5]} is not the partner's interchange ID ${partner.partner.interchangeId}`);
  if (e[6] !== partner.us.qualifier)
    throw unreadable('007', `ISA07 ${e[6]} is not our qualifier ${partner.us.qualifier} for this partner`);
  if (e[7] !== partner.us.interchangeId)
    throw unreadable('008', `ISA08 ${e[7]} is not our interchange ID ${partner.us.interchangeId} for this partner`);
  if (!USAGE.has(e[14] ?? '')) throw unreadable('020', `ISA15 ${e[14]} is neither P nor T`);
}

/**
 * Reads the envelopes of `content` for `partner`. Throws InterchangeUnreadable (the TA1's code) for: no or
 * broken ISA (reader), another sender or receiver (005–008), a segment outside a group or a group not closed
 * (022, 024), no IEA (023), IEA02 not ISA13 (001), IEA01 not the groups' count (021).
 */
export async function checkEnvelope(content: Buffer, partner: TradingPartner): Promise<ReadableInterchange> {
  const opened = openInterchange(content);
  const isa = opened.isa;
  checkParties(isa, partner);
  const groups: GroupEnvelope[] = [];
  const functionalIds = acceptedFunctionalIds(partner);
  let group: GroupEnvelope | null = null;
  let ended = false;
  const unreadable = (code: string, message: string) => new InterchangeUnreadable(code, message, isa.control);
  for await (const segment of opened.segments) {
    if (segment.position === 1) continue;
    if (ended) throw unreadable('024', `a ${segment.id} segment follows the IEA`);
    switch (segment.id) {
      case 'GS': {
        if (group)
          throw unreadable(
            '022',
            `GS ${segment.elements[5] ?? ''} opens before the group ${group.control} is closed by a GE`,
          );
        const [functionalId = '', sender = '', receiver = '', , , control = ''] = segment.elements;
        group = { functionalId, control, received: 0, included: 0, codes: [], problems: [] };
        if (!/^\d{1,9}$/.test(control)) {
          group.codes.push('6');
          group.problems.push(`GS06 ${control} is not a control number of 1 to 9 digits`);
        }
        if (functionalId !== 'FA' && !functionalIds.has(functionalId)) {
          group.codes.push('1');
          group.problems.push(`functional group ${functionalId} is not among the partner's inbound sets`);
        }
        if (sender !== partner.partner.groupCode || receiver !== partner.us.groupCode) {
          group.codes.push('1');
          group.problems.push(
            `GS02/GS03 ${sender}/${receiver} are not the partner's and our group codes ${partner.partner.groupCode}/${partner.us.groupCode}`,
          );
        }
        break;
      }
      case 'GE': {
        if (!group) throw unreadable('024', 'a GE closes no group');
        const [count = '', control = ''] = segment.elements;
        group.included = /^\d+$/.test(count) ? Number(count) : group.received;
        if (control !== group.control) {
          group.codes.push('4');
          group.problems.push(`GE02 ${control} is not GS06 ${group.control}`);
        }
        if (count !== String(group.received)) {
          group.codes.push('5');
          group.problems.push(`GE01 ${count} does not count the group's ${group.received} sets`);
        }
        groups.push(group);
        group = null;
        break;
      }
      case 'IEA': {
        if (group) throw unreadable('023', `the IEA comes before the GE of group ${group.control}`);
        const [count = '', control = ''] = segment.elements;
        if (control !== isa.control) throw unreadable('001', `IEA02 ${control} is not ISA13 ${isa.control}`);
        if (count !== String(groups.length))
          throw unreadable('021', `IEA01 ${count} does not count the interchange's ${groups.length} groups`);
        ended = true;
        break;
      }
      case 'ST':
        if (!group) throw unreadable('024', 'an ST stands outside any functional group');
        group.received += 1;
        break;
      case 'SE':
        if (!group) throw unreadable('024', 'an SE stands outside any functional group');
        break;
      default:
        if (!group) throw unreadable('024', `a ${segment.id} segment stands outside any functional group`);
      // A segment between an SE and the next ST belongs to no set: the set reading passes over it.
    }
  }
  if (!ended) throw unreadable('023', 'the interchange ends without an IEA');
  return { isa, groups };
}
