import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';

/** The parts of a request an Idempotency-Key stands for, in the order a mismatch names them. */
export type FingerprintPart = 'method' | 'path' | 'query' | 'body';

/** What a request means to its Idempotency-Key: its method, its URL as sent, and its body. */
export interface RequestMeaning {
  method: string;
  /** The path and query string as sent (`req.originalUrl`). */
  url: string;
  /** The body's bytes as received (an upload's: its content headers, the file being streamed, not held). */
  bytes: Buffer | string | undefined;
  /** The body parsed, when it was JSON: compared by its RFC 8785 canonical form instead of its bytes. */
  json?: { value: unknown };
}

/** A request's fingerprint as stored, and how to compare it with one stored earlier. */
export interface RequestFingerprint {
  /** `v2 <METHOD> <path> <query> <body>`, each part but the method a SHA-256: a mismatch can name its part. */
  readonly value: string;
  /**
   * The parts of the request that differ from the one a stored fingerprint was taken of: empty when they are the
   * same request, null when they differ but the stored form cannot tell where (a record of the first form).
   */
  differences(stored: string): FingerprintPart[] | null;
}

const VERSION = 'v2';
const PARTS: readonly FingerprintPart[] = ['method', 'path', 'query', 'body'];

const sha256 = (text: Buffer | string) => createHash('sha256').update(text).digest('base64url');

/**
 * The fingerprint of a request's meaning, not its bytes: the same bulk body with its keys in another order, or
 * its query parameters in another order, is the same request. The query is its parameters sorted by name (a
 * stable sort: a repeated name keeps its values' order), decoded and encoded again as URLSearchParams does; a
 * JSON body is its RFC 8785 (JCS) form, written by `canonicalize`, the RFC's reference implementation.
 */
export function requestFingerprint(request: RequestMeaning): RequestFingerprint {
  const method = request.method.toUpperCase();
  const queryAt = request.url.indexOf('?');
  const path = queryAt < 0 ? request.url : request.url.slice(0, queryAt);
  const query = queryAt < 0 ? '' : request.url.slice(queryAt + 1);
  const parts = [method, sha256(path), sha256(canonicalQuery(query)), bodyDigest(request)];
  return {
    value: `${VERSION} ${parts.join(' ')}`,
    differences(stored) {
      const storedParts = stored.split(' ');
      if (storedParts[0] !== VERSION) return stored === firstForm(request) ? [] : null;
      return PARTS.filter((_, index) => storedParts[index + 1] !== parts[index]);
    },
  };
}

function canonicalQuery(query: string): string {
  const entries = [...new URLSearchParams(query)];
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return new URLSearchParams(entries).toString();
}

function bodyDigest({ bytes, json }: RequestMeaning): string {
  if (json !== undefined) {
    try {
      return sha256(`json:${canonicalize(json.value) ?? ''}`);
    } catch {
      // RFC 8785 refuses a lone surrogate, which JSON.parse lets through: such a body is compared by its bytes.
    }
  }
  return createHash('sha256')
    .update('bytes:')
    .update(bytes ?? '')
    .digest('base64url');
}

/**
 * The fingerprint records of the first form hold (a SHA-256 of method, URL as sent and body bytes). It is
 * computed only when such a record is met, until the last of them expires (IDEMPOTENCY_TTL_SECONDS).
 */
function firstForm(request: RequestMeaning): string {
  return createHash('sha256')
    .update(`${request.method.toUpperCase()} ${request.url}\n`)
    .update(request.bytes ?? '')
    .digest('hex');
}
