import { AppError, type ErrorDetail } from '@wms/platform';
import { documentInvalid } from '../documents/index.js';
import { lotProblem } from '../inventory/index.js';
import type { ItemRef } from '../master-data/index.js';
import type { LockedReturn } from './returns.repository.js';
import { QUARANTINE_LOCATION, RESTOCK_LOCATION, type Disposition, type ReceiptLineInput } from './return.schemas.js';

type ReturnLine = LockedReturn['lines'][number];

/** One receipt line as it is recorded (and, unless scrapped, put on hand). */
export interface PlannedLine {
  lineNo: number;
  returnLine: ReturnLine;
  qty: number;
  /** '' for an item without lots. */
  lotNo: string;
  disposition: Disposition;
  /** Where it goes on hand; null for a scrapped line. */
  location: { id: string; code: string } | null;
}

/**
 * Checks a receipt against its return: each line must match a line of the return (by sku, and lot when
 * either names one), keep the lot rules, and go to a location fit for its disposition; all problems are
 * one 400. Then no return line may receive more than it still expects: 409 RECEIPT_EXCEEDS_RETURN.
 */
export function planReceipt(
  locked: LockedReturn,
  inputs: ReceiptLineInput[],
  items: ItemRef[],
  locations: Map<string, { id: string; type: string }>,
): PlannedLine[] {
  const details: ErrorDetail[] = [];
  const planned: PlannedLine[] = [];
  inputs.forEach((input, n) => {
    const path = `lines.${n}`;
    const lineNo = n + 1;
    const item = items[n]!;
    const match = matchLine(locked, input, item);
    if (typeof match === 'string') {
      details.push({ path: `${path}.sku`, message: `line ${lineNo}: ${match}` });
      return;
    }
    const lotNo = input.lotNo ?? match.lotNo;
    const lot = lotProblem(item, lotNo, null, input.disposition !== 'scrap');
    if (lot) details.push({ path: `${path}.lotNo`, message: `line ${lineNo}: ${lot}` });
    const location = locationFor(input, locations);
    if (typeof location === 'string')
      details.push({ path: `${path}.locationCode`, message: `line ${lineNo}: ${location}` });
    planned.push({
      lineNo,
      returnLine: match,
      qty: input.qty,
      lotNo,
      disposition: input.disposition,
      location: typeof location === 'string' ? null : location,
    });
  });
  if (details.length) throw documentInvalid(details);
  refuseOverReceipt(locked.rmaNo, planned);
  return planned;
}

/** The return line a receipt line receives, or why there is none. */
function matchLine(locked: LockedReturn, input: ReceiptLineInput, item: ItemRef): ReturnLine | string {
  const candidates = locked.lines.filter((line) => line.itemId === item.id);
  if (!candidates.length) return `return ${locked.rmaNo} has no line of item SKU ${item.sku}`;
  if (input.lotNo) {
    const match = candidates.find((line) => line.lotNo === input.lotNo) ?? candidates.find((line) => line.lotNo === '');
    return match ?? `return ${locked.rmaNo} has no line of item SKU ${item.sku} lot ${input.lotNo}`;
  }
  if (candidates.length > 1)
    return `return ${locked.rmaNo} has several lines of item SKU ${item.sku}; name the lotNo received`;
  return candidates[0]!;
}

/** The location of a restocked (not quarantine) or quarantined (type quarantine) line; null for scrap. */
function locationFor(
  input: ReceiptLineInput,
  locations: Map<string, { id: string; type: string }>,
): { id: string; code: string } | null | string {
  if (input.disposition === 'scrap') return null;
  const code = input.locationCode ?? (input.disposition === 'restock' ? RESTOCK_LOCATION : QUARANTINE_LOCATION);
  const found = locations.get(code);
  if (!found) return `Location code ${code} not found`;
  if (input.disposition === 'restock' && found.type === 'quarantine')
    return `location ${code} is a quarantine location; restocked goods go where they can be allocated from`;
  if (input.disposition === 'quarantine' && found.type !== 'quarantine')
    return `location ${code} is of type ${found.type}; quarantined goods go to a location of type quarantine`;
  return { id: found.id, code };
}

function refuseOverReceipt(rmaNo: string, planned: PlannedLine[]): void {
  const receiving = new Map<string, number>();
  const problems: string[] = [];
  for (const line of planned) {
    const total = Number(((receiving.get(line.returnLine.id) ?? 0) + line.qty).toFixed(4));
    receiving.set(line.returnLine.id, total);
  }
  for (const line of new Set(planned.map((entry) => entry.returnLine))) {
    const total = receiving.get(line.id)!;
    const open = Number((line.qty - line.receivedQty).toFixed(4));
    if (total > open) {
      problems.push(
        `return ${rmaNo} line ${line.lineNo} (item SKU ${line.sku}) expects ${open} more; ${total} cannot be received`,
      );
    }
  }
  if (problems.length) throw AppError.conflict('RECEIPT_EXCEEDS_RETURN', problems.join('; '));
}
