import type { UnitOfWork } from '@wms/platform';
import type { Interchange } from '../interchanges/index.js';
import type { TradingPartner } from '../partners/index.js';
import type { ReadSegment } from '../x12/index.js';
import type { InboundRepository } from './inbound.repository.js';

/** A control number as compared: leading zeros do not count (GS06 may be written 1 or 000000001). */
const normal = (value: string) => (/^\d+$/.test(value) ? String(Number(value)) : value);

/** What AK9-01 makes of our outbound interchange: A accepted; E and P accepted with errors; R rejected. */
const INTERCHANGE_STATE = {
  A: 'acknowledged',
  E: 'acknowledged_with_errors',
  P: 'acknowledged_with_errors',
  R: 'acknowledgment_rejected',
} as const;

/**
 * A partner's 997 for one of our outbound groups (docs/edi.md, "Acknowledgments"): AK1 (GS01 and GS06 of
 * ours) finds the group's outbound sets; each AK2/AK5 marks its set acknowledged (A, E) or rejected (R), a
 * set the 997 does not list takes the group's AK9; the group's interchanges become acknowledged,
 * acknowledged_with_errors or acknowledgment_rejected, pointing at the partner's 997. Answers what it found.
 */
export async function readFunctionalAcknowledgment(
  repository: InboundRepository,
  partner: TradingPartner,
  acknowledgment: Pick<Interchange, 'id'>,
  body: ReadSegment[],
  transaction: UnitOfWork,
): Promise<{ functionalId: string; groupControl: string; sets: number }> {
  const ak1 = body.find((segment) => segment.id === 'AK1');
  const ak9 = body.find((segment) => segment.id === 'AK9');
  const functionalId = ak1?.elements[0]?.trim() ?? '';
  const groupControl = normal(ak1?.elements[1]?.trim() ?? '');
  const groupStatus = (ak9?.elements[0]?.trim() ?? 'A') as keyof typeof INTERCHANGE_STATE;
  const perSet = new Map<string, { status: string; codes: string[] }>();
  let current: string | null = null;
  for (const segment of body) {
    if (segment.id === 'AK2') current = normal(segment.elements[1]?.trim() ?? '');
    else if (segment.id === 'AK5' && current !== null) {
      const [status = 'A', ...codes] = segment.elements.map((value) => value.trim());
      perSet.set(current, { status, codes: codes.filter(Boolean) });
      current = null;
    }
  }
  const sets = await repository.outboundSets(partner.id, functionalId, groupControl);
  const acknowledged: string[] = [];
  const rejected: string[] = [];
  const codes: string[] = [];
  for (const set of sets) {
    const answer = perSet.get(normal(set.setControl));
    const status = answer?.status ?? (groupStatus === 'R' ? 'R' : 'A');
    if (answer?.codes.length) codes.push(`${set.setCode} ${set.setControl}: AK5 ${answer.codes.join(',')}`);
    (status === 'R' ? rejected : acknowledged).push(set.id);
  }
  await repository.acknowledgeSets(acknowledged, 'acknowledged', [], transaction);
  await repository.acknowledgeSets(rejected, 'acknowledgment_rejected', codes, transaction);
  const state = INTERCHANGE_STATE[groupStatus] ?? 'acknowledged_with_errors';
  await repository.acknowledgeInterchanges(
    [...new Set(sets.map((set) => set.interchangeId))],
    state,
    acknowledgment.id,
    transaction,
  );
  return { functionalId, groupControl, sets: sets.length };
}
