/**
 * What an import reads in any runtime: a Blob or File (read again for a retry), or a web stream (sent
 * once). `@wms/client/node` adds a file's path and a Node stream.
 */
export type UploadSource = Blob | ReadableStream<Uint8Array>;

export interface UploadOptions {
  entity: 'items' | 'partners' | 'locations' | 'asn' | 'orders';
  /** ndjson (one entry per line) or csv (a header row of field names); default from the file name, else ndjson. */
  format?: 'ndjson' | 'csv';
  /** Compress on the way (Content-Encoding: gzip). A file whose name ends in .gz is sent as it is, already gzip. */
  gzip?: boolean;
  /** The tenant, for a cross-tenant API key. */
  tenantId?: string;
  idempotencyKey?: string;
  signal?: AbortSignal;
  /** How long one attempt may take to send the file and get its answer, in milliseconds (default 10 minutes). */
  timeoutMs?: number;
}

/** An upload's own bound per attempt: a file takes longer to send than a call's body. */
export const UPLOAD_TIMEOUT_MS = 600_000;

const CONTENT_TYPES = { ndjson: 'application/x-ndjson', csv: 'text/csv' } as const;

/** The body of one attempt and its headers; `replayable` when the source can be read again for a retry. */
export interface UploadBody {
  open(): Blob | ReadableStream<Uint8Array>;
  headers: Record<string, string>;
  replayable: boolean;
}

/** A Blob is read anew per attempt; a stream once. */
function opener(source: UploadSource): { open: () => Blob | ReadableStream<Uint8Array>; replayable: boolean } {
  if (source instanceof Blob) return { open: () => source, replayable: true };
  let used = false;
  return {
    open: () => {
      if (used) throw new Error('a stream can be uploaded once');
      used = true;
      return source;
    },
    replayable: false,
  };
}

/** Gzip on the way, with the platform's CompressionStream (browsers, Deno, Bun, Node 18+). */
function gzipped(body: Blob | ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  const stream = body instanceof Blob ? body.stream() : body;
  return stream.pipeThrough(new CompressionStream('gzip') as ReadableWritablePair<Uint8Array, Uint8Array>);
}

/**
 * The body of an import, compressed on the way when asked. `name` (a File's own by default) tells the
 * format (`.csv`) and a file gzipped already (`.gz`).
 */
export function uploadBody(
  source: UploadSource,
  options: Pick<UploadOptions, 'format' | 'gzip'>,
  name = typeof File !== 'undefined' && source instanceof File ? source.name : '',
): UploadBody {
  const lower = name.toLowerCase();
  const alreadyGzip = lower.endsWith('.gz');
  const format = options.format ?? (/\.csv(\.gz)?$/.test(lower) ? 'csv' : 'ndjson');
  const file = opener(source);
  const gzip = options.gzip === true && !alreadyGzip;
  const headers: Record<string, string> = { 'content-type': CONTENT_TYPES[format] };
  if (gzip || alreadyGzip) headers['content-encoding'] = 'gzip';
  return { open: () => (gzip ? gzipped(file.open()) : file.open()), headers, replayable: file.replayable };
}
