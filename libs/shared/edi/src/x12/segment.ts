/** One X12 segment: its ID (ISA, GS, W05...) and its elements in order (element 1 first). */
export interface Segment {
  id: string;
  elements: string[];
}

/** GS01, the functional identifier code, of each transaction set this service reads or writes. */
export const FUNCTIONAL_ID: Record<string, string> = {
  '940': 'OW',
  '943': 'AR',
  '944': 'RE',
  '945': 'SW',
  '947': 'AW',
  '846': 'IB',
  '856': 'SH',
  '997': 'FA',
};
