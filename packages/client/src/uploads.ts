import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { createGzip } from 'node:zlib';

/** What an import reads: a file's path (or file: URL), a Blob or File, or a stream read once. */
export type UploadSource = string | URL | Blob | Readable | ReadableStream<Uint8Array>;

export interface UploadOptions {
  entity: 'items' | 'partners' | 'locations' | 'asn' | 'orders';
  /** ndjson (one entry per line) or csv (a header row of field names); default from the file name, else ndjson. */
  format?: 'ndjson' | 'csv';
  /** Compress on the way (Content-Encoding: gzip). A path ending in .gz is sent as it is, already gzip. */
  gzip?: boolean;
  /** The tenant, for a cross-tenant API key. */
  tenantId?: string;
  idempotencyKey?: string;
  signal?: AbortSignal;
}

const CONTENT_TYPES = { ndjson: 'application/x-ndjson', csv: 'text/csv' } as const;

/** The body of one attempt and its headers; `replayable` when the source can be read again for a retry. */
export interface UploadBody {
  open(): ReadableStream<Uint8Array>;
  headers: Record<string, string>;
  replayable: boolean;
}

function pathOf(source: UploadSource): string | undefined {
  if (typeof source === 'string') return source;
  if (source instanceof URL) return fileURLToPath(source);
  return undefined;
}

function nameOf(source: UploadSource): string {
  const path = pathOf(source);
  if (path !== undefined) return path;
  return typeof File !== 'undefined' && source instanceof File ? source.name : '';
}

/** A file's bytes as a web stream, read anew each time it is opened (or once, for a stream given). */
function opener(source: UploadSource): { open: () => Readable | ReadableStream<Uint8Array>; replayable: boolean } {
  const path = pathOf(source);
  if (path !== undefined) return { open: () => createReadStream(path), replayable: true };
  if (source instanceof Blob) return { open: () => source.stream(), replayable: true };
  let used = false;
  return {
    open: () => {
      if (used) throw new Error('a stream can be uploaded once');
      used = true;
      return source as Readable | ReadableStream<Uint8Array>;
    },
    replayable: false,
  };
}

const toWeb = (stream: Readable | ReadableStream<Uint8Array>): ReadableStream<Uint8Array> =>
  stream instanceof Readable ? (Readable.toWeb(stream) as ReadableStream<Uint8Array>) : stream;

/** The streamed body of an import, compressed on the way when asked. */
export function uploadBody(source: UploadSource, options: Pick<UploadOptions, 'format' | 'gzip'>): UploadBody {
  const name = nameOf(source).toLowerCase();
  const alreadyGzip = name.endsWith('.gz');
  const format = options.format ?? (/\.csv(\.gz)?$/.test(name) ? 'csv' : 'ndjson');
  const file = opener(source);
  const gzip = options.gzip === true && !alreadyGzip;
  const headers: Record<string, string> = { 'content-type': CONTENT_TYPES[format] };
  if (gzip || alreadyGzip) headers['content-encoding'] = 'gzip';
  return {
    open: () => {
      const stream = file.open();
      if (!gzip) return toWeb(stream);
      const nodeStream = stream instanceof Readable ? stream : Readable.fromWeb(stream as never);
      return toWeb(nodeStream.pipe(createGzip()));
    },
    headers,
    replayable: file.replayable,
  };
}
