import type { CursorPosition } from '@wms/platform';
import type { Interchange, InterchangeState } from '../interchanges/index.js';
import type { Separators } from '../partners/index.js';
import type { Segment } from '../x12/index.js';

/** An interchange as the partner's documents list shows it. */
export interface EdiDocument extends Interchange {
  /** Outbound, still unacknowledged past the partner's ackOverdueHours. */
  overdue: boolean;
  setCount: number;
  /** The documents of ours its first sets made (inbound) or came from (outbound): kind (order, asn…) and ref. */
  documents: Array<{ kind: string | null; ref: string }>;
}

/** One transaction set of an interchange, with its errors (AK3/AK4 of the 997, or what the engine found). */
export interface EdiDocumentSet {
  id: string;
  direction: 'in' | 'out';
  setCode: string;
  functionalId: string;
  groupControl: string;
  setControl: string;
  state: string;
  errors: unknown[];
  documentKind: string | null;
  documentRef: string | null;
  createdAt: Date;
  acknowledgedAt: Date | null;
}

/** A document with what its page shows: its text, its segments, its sets, its acknowledgment and resends. */
export interface EdiDocumentDetail extends EdiDocument {
  raw: string;
  /** True when `raw` is the beginning of a longer text. */
  rawTruncated: boolean;
  separators: Separators | null;
  segments: Array<Segment & { position: number }>;
  segmentCount: number;
  /** Why the text could not be split into segments. */
  parseError: string | null;
  sets: EdiDocumentSet[];
  acknowledgment: EdiDocument | null;
  resends: Array<{ id: string; state: string; createdAt: Date }>;
}

export interface DocumentsQuery {
  direction?: 'in' | 'out';
  state?: InterchangeState;
  setCode?: string;
  limit: number;
  cursor?: CursorPosition;
}
