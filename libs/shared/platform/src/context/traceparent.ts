import { randomBytes } from 'node:crypto';

/** The parts of a W3C Trace Context `traceparent` header this service uses. */
export interface TraceParent {
  traceId: string;
  parentId: string;
  sampled: boolean;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;

/**
 * Parses `traceparent` (version-traceid-parentid-flags, lowercase hex). Per the W3C rules a header that
 * does not parse is ignored, never refused: version ff, an all-zero trace or parent id, extra fields on
 * version 00, or wrong lengths all mean "no trace given", and the request carries on without one.
 */
export function parseTraceparent(header: string | undefined): TraceParent | undefined {
  if (!header || header.length > 512) return undefined;
  const match = TRACEPARENT.exec(header.trim());
  if (!match) return undefined;
  const [, version, traceId, parentId, flags, rest] = match as unknown as [
    string,
    string,
    string,
    string,
    string,
    string?,
  ];
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined;
  if (/^0+$/.test(traceId) || /^0+$/.test(parentId)) return undefined;
  return { traceId, parentId, sampled: (parseInt(flags, 16) & 1) === 1 };
}

/** A `traceparent` continuing `traceId` from this service, with a fresh span id of its own. */
export function childTraceparent(traceId: string, sampled = true): string {
  return `00-${traceId}-${randomBytes(8).toString('hex')}-${sampled ? '01' : '00'}`;
}
