import type { SetBody } from '../x12/index.js';

/**
 * The transaction sets of an interchange we wrote, as the bodies between each ST and SE: what a resend
 * envelopes again. Our own files only (the envelope writer's): the element separator is ISA's fourth
 * character and the segment terminator the one after ISA16 (position 105); no repetition or release
 * characters are in play.
 */
export function setBodiesOf(raw: Buffer): SetBody[] {
  const text = raw.toString('utf8');
  if (!text.startsWith('ISA') || text.length < 106) throw new Error('not an X12 interchange');
  const element = text[3]!;
  const terminator = text[105]!;
  const sets: SetBody[] = [];
  let current: SetBody | null = null;
  for (const line of text.split(terminator)) {
    const trimmed = line.replace(/^[\r\n]+/, '');
    if (!trimmed) continue;
    const [id, ...elements] = trimmed.split(element);
    if (id === 'ST') current = { code: elements[0]!, segments: [] };
    else if (id === 'SE') {
      if (current) sets.push(current);
      current = null;
    } else if (current) current.segments.push({ id: id!, elements });
  }
  return sets;
}
