import type { Separators } from '../partners/index.js';
import type { Segment } from '../x12/index.js';

/** The ISA is fixed width: 106 characters, its terminator the last one. */
const ISA_LENGTH = 106;

/** A document's text split into its segments, for people to read (the engine reads with its own parser). */
export interface SplitDocument {
  /** The separators its own ISA declares (positions 3, 104 and 105); null when it has no readable ISA. */
  separators: Separators | null;
  segments: Array<Segment & { position: number }>;
  /** How many segments the text holds; more than `segments` when they were cut at the limit. */
  segmentCount: number;
  /** Why the text could not be split, when it could not. */
  error: string | null;
}

/**
 * Splits an interchange's text with the separators its ISA declares, up to `limit` segments shown. Line
 * breaks around a segment (many partners end each segment with one) are not part of it.
 */
export function splitSegments(text: string, limit: number): SplitDocument {
  const start = text.search(/\S/);
  const body = start < 0 ? '' : text.slice(start);
  if (!body.startsWith('ISA') || body.length < ISA_LENGTH) {
    return {
      separators: null,
      segments: [],
      segmentCount: 0,
      error: 'the text does not begin with a whole ISA segment',
    };
  }
  const separators = { element: body[3]!, component: body[104]!, segment: body[105]! };
  if (new Set([separators.element, separators.component, separators.segment]).size < 3) {
    return {
      separators,
      segments: [],
      segmentCount: 0,
      error: "the ISA's separators are not three different characters",
    };
  }
  const segments: SplitDocument['segments'] = [];
  let segmentCount = 0;
  for (const piece of body.split(separators.segment)) {
    const segment = piece.replace(/^[\r\n]+|[\r\n]+$/g, '');
    if (!segment.trim()) continue;
    segmentCount += 1;
    if (segments.length >= limit) continue;
    const [id = '', ...elements] = segment.split(separators.element);
    segments.push({ position: segmentCount, id, elements });
  }
  return { separators, segments, segmentCount, error: null };
}
