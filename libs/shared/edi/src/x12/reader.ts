import { Readable } from 'node:stream';
import { X12parser } from 'x12-parser';
import type { Separators } from '../partners/index.js';

/**
 * The one adapter over `x12-parser` 1.3 (ADR 0207, "Reading interchanges"; ADR 0205: library internals stay
 * in version-pinned adapters). Nothing else imports the library.
 *
 * What the library does: a Transform stream that takes the separators from the first chunk's positions 3,
 * 104 and 105 and pushes one object per segment (`{ name, '1': …, '1-1': … }`), holding one partial segment
 * between chunks (bounded memory). What it does not do, and this file does instead: check the ISA at all (a
 * broken ISA just gives wrong separators), make sure its first chunk holds the whole ISA, keep an element's
 * components together, count segment positions, or say which element of an ISA is wrong.
 */

/** The ISA's length with its terminator: 106 characters, fixed width. */
export const ISA_LENGTH = 106;

/** Where the ISA's element separator must stand (after ISA and each of its elements but the last). */
const ISA_SEPARATOR_POSITIONS = [3, 6, 17, 20, 31, 34, 50, 53, 69, 76, 81, 83, 89, 99, 101, 103];

/** An interchange whose envelope cannot be read; `code` is TA105 (X12 interchange note code). */
export class InterchangeUnreadable extends Error {
  override name = 'InterchangeUnreadable';
  constructor(
    readonly code: string,
    message: string,
    /** ISA13 when it could be read, for TA101. */
    readonly control: string | null = null,
  ) {
    super(message);
  }
}

/** The ISA as read: its 16 elements (trimmed, ISA01 first), the separators it declares, ISA13. */
export interface IsaHeader {
  elements: string[];
  separators: Separators;
  control: string;
}

/** One segment as read: its ID, its elements (components joined with the component separator), its place. */
export interface ReadSegment {
  id: string;
  elements: string[];
  /** 1 for the ISA, counting every segment of the interchange. */
  position: number;
}

/** Leading bytes a file may carry before its ISA: a UTF-8 byte order mark, blank lines. */
function leadingJunk(text: string): number {
  let start = 0;
  if (text.charCodeAt(0) === 0xfeff) start = 1;
  while (start < text.length && /\s/.test(text[start]!)) start += 1;
  return start;
}

/**
 * Reads and checks the ISA at the start of an interchange (the first bytes, at least 106 after any BOM or
 * blank lines). Throws InterchangeUnreadable with the TA1 note code: 024 (no ISA, or not fixed width), 026
 * (element separator), 027 (component separator), 018 (ISA13 not nine digits).
 */
export function readIsa(head: string): IsaHeader {
  const text = head.slice(leadingJunk(head));
  if (!text.startsWith('ISA')) throw new InterchangeUnreadable('024', 'the interchange does not begin with an ISA');
  if (text.length < ISA_LENGTH)
    throw new InterchangeUnreadable('023', `the ISA is cut off: ${text.length} of ${ISA_LENGTH} characters`);
  const element = text[3]!;
  const component = text[104]!;
  const segment = text[105]!;
  const control = /^\d{9}$/.test(text.slice(90, 99)) ? text.slice(90, 99) : null;
  if (/[A-Za-z0-9 ]/.test(element))
    throw new InterchangeUnreadable('026', `the element separator ${JSON.stringify(element)} is not allowed`, control);
  const misplaced = ISA_SEPARATOR_POSITIONS.find((position) => text[position] !== element);
  if (misplaced !== undefined)
    throw new InterchangeUnreadable(
      '024',
      `the ISA is not fixed width: position ${misplaced} holds ${JSON.stringify(text[misplaced])}, not the element separator`,
      control,
    );
  if (/[A-Za-z0-9 ]/.test(component) || component === element)
    throw new InterchangeUnreadable(
      '027',
      `the component separator ${JSON.stringify(component)} is not allowed`,
      control,
    );
  if (/[A-Za-z0-9 ]/.test(segment) || segment === element || segment === component)
    throw new InterchangeUnreadable('024', `the segment terminator ${JSON.stringify(segment)} is not allowed`, control);
  const elements = text.slice(4, 105).split(element);
  if (elements.length !== 16) throw new InterchangeUnreadable('024', 'the ISA does not hold 16 elements', control);
  if (!control) throw new InterchangeUnreadable('018', 'ISA13 is not a nine-digit control number');
  return {
    elements: elements.map((value, index) => (index === 15 ? value : value.trim())),
    separators: { element, component, segment },
    control,
  };
}

/** The formatted object the library pushes for one segment. */
type ParsedSegment = { name: string } & Record<string, string>;

/** Puts a segment's elements back together: the library splits each element's components apart. */
function elementsOf(parsed: ParsedSegment, component: string): string[] {
  const elements: string[] = [];
  for (let index = 1; `${index}` in parsed; index += 1) {
    let value = parsed[`${index}`] ?? '';
    for (let part = 1; `${index}-${part}` in parsed; part += 1) value += component + parsed[`${index}-${part}`];
    elements.push(value);
  }
  return elements;
}

/** Bytes given to the library per chunk: small enough that a large interchange is never one string. */
const CHUNK_BYTES = 64 * 1024;

/** An interchange's bytes as chunks (a stored interchange is one Buffer; a file is read as it comes). */
function chunks(content: Buffer): Readable {
  return Readable.from(
    (function* () {
      for (let start = 0; start < content.length; start += CHUNK_BYTES)
        yield content.subarray(start, start + CHUNK_BYTES);
    })(),
    { objectMode: false },
  );
}

/** An interchange opened for reading: its ISA (checked) and its segments, ISA first, one at a time. */
export interface OpenedInterchange {
  isa: IsaHeader;
  segments: AsyncGenerator<ReadSegment>;
}

/**
 * Opens an interchange: checks its ISA at once (throws InterchangeUnreadable) and reads its segments with
 * the separators the ISA declares, one at a time. Memory holds one chunk and one segment, however large.
 */
export function openInterchange(content: Buffer): OpenedInterchange {
  const text = content.subarray(0, Math.min(content.length, 4 * ISA_LENGTH)).toString('latin1');
  const skip = leadingJunk(text);
  const isa = readIsa(text.slice(skip));
  return { isa, segments: segmentsOf(content.subarray(skip), isa) };
}

/** The segments of an interchange whose ISA was checked (openInterchange). */
export function readSegments(content: Buffer): AsyncGenerator<ReadSegment> {
  return openInterchange(content).segments;
}

async function* segmentsOf(content: Buffer, isa: IsaHeader): AsyncGenerator<ReadSegment> {
  // The library reads the separators from its first chunk: that chunk begins with the ISA and holds it whole.
  const parser = new X12parser('latin1');
  chunks(content).pipe(parser);
  let position = 0;
  for await (const parsed of parser as AsyncIterable<ParsedSegment>) {
    if (!parsed.name) continue;
    position += 1;
    yield {
      id: parsed.name,
      elements: position === 1 ? isa.elements : elementsOf(parsed, isa.separators.component),
      position,
    };
  }
}
