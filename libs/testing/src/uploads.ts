import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { once } from 'node:events';
import { createGzip } from 'node:zlib';

/** The answer to an upload, and how long after the request began it came. */
export interface UploadAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: { code?: string; message?: string; line?: number; [field: string]: unknown };
  afterMs: number;
}

/** An upload whose body the test sends a piece at a time, holding it open in between. */
export interface HeldUpload {
  write(piece: string | Buffer): Promise<void>;
  end(piece?: string | Buffer): void;
  /** Settles when the gateway answers, whether or not the body was finished. */
  answer: Promise<UploadAnswer>;
  abort(): void;
}

/** Starts a POST whose body is streamed (chunked) by the test; nothing is sent but the headers until it writes. */
export function holdUpload(baseUrl: string, path: string, headers: Record<string, string>): HeldUpload {
  const { hostname, port } = new URL(baseUrl);
  const started = performance.now();
  const req = httpRequest({ host: hostname, port, method: 'POST', path, headers });
  // A gateway that refuses closes the connection: writing more then fails, which the test does not care about.
  req.on('error', () => undefined);
  req.flushHeaders();
  const answer = new Promise<UploadAnswer>((resolve, reject) => {
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: UploadAnswer['body'] = {};
        try {
          body = text ? (JSON.parse(text) as UploadAnswer['body']) : {};
        } catch {
          body = { message: text };
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, afterMs: performance.now() - started });
      });
    });
    req.on('close', () => reject(new Error('the connection closed without an answer')));
  });
  // The rejection above is only read when the test awaits the answer.
  answer.catch(() => undefined);
  return {
    write: (piece) => new Promise<void>((resolve) => req.write(piece, () => resolve())),
    end: (piece) => void (piece === undefined ? req.end() : req.end(piece)),
    answer,
    abort: () => req.destroy(),
  };
}

/** Sends a whole body at once and waits for the answer (see holdUpload). */
export function upload(
  baseUrl: string,
  path: string,
  headers: Record<string, string>,
  body: string | Buffer,
): Promise<UploadAnswer> {
  const held = holdUpload(baseUrl, path, headers);
  held.end(body);
  return held.answer;
}

/**
 * Runs `work` while sampling this process's heap and Buffer memory (`heapUsed + arrayBuffers`) every few
 * milliseconds: how far above its level before the work the peak went. The gateway of a test runs in this
 * process, so a file it held whole would show here; garbage not yet collected shows too, so a bound on it
 * must leave room for a few young-generation collections' worth.
 */
export async function peakMemoryGrowth<T>(work: () => Promise<T>): Promise<{ result: T; growthBytes: number }> {
  const sample = () => {
    const { heapUsed, arrayBuffers } = process.memoryUsage();
    return heapUsed + arrayBuffers;
  };
  const before = sample();
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, sample())), 5);
  try {
    const result = await work();
    peak = Math.max(peak, sample());
    return { result, growthBytes: peak - before };
  } finally {
    clearInterval(timer);
  }
}

/**
 * The gzip of `head`, then `fillBytes` bytes of `fill`, then `tail`: a body that is small on the wire and
 * large once undone, made without ever holding the large text.
 */
export async function gzipOfLong(head: string, fill: string, fillBytes: number, tail = ''): Promise<Buffer> {
  const gzip = createGzip();
  const parts: Buffer[] = [];
  gzip.on('data', (part: Buffer) => parts.push(part));
  const block = Buffer.alloc(1 << 20, fill);
  gzip.write(head);
  for (let sent = 0; sent < fillBytes; sent += block.length) {
    const piece = sent + block.length <= fillBytes ? block : block.subarray(0, fillBytes - sent);
    if (!gzip.write(piece)) await once(gzip, 'drain');
  }
  gzip.end(tail);
  await once(gzip, 'end');
  return Buffer.concat(parts);
}
