import { PassThrough, type Readable } from 'node:stream';
import { AppError, type Config } from '@wms/platform';

type UploadLimits = Pick<Config['imports'], 'uploadIdleTimeoutMs' | 'minUploadBytesPerSecond' | 'uploadRateWindowMs'>;

/** How often the rate is looked at: often enough to end a trickle close to its window's end. */
const RATE_CHECK_MAX_MS = 1_000;

/**
 * The body as a stream of its own: a failing import stops reading it but does not destroy it (an HTTP
 * request's socket still carries the answer); a body that breaks off fails the import, and so does one that
 * sends no byte for `uploadIdleTimeoutMs` (408 UPLOAD_IDLE) or fewer than `minUploadBytesPerSecond` over a
 * `uploadRateWindowMs` window (408 UPLOAD_TOO_SLOW). Time the body is paused by back-pressure (the import
 * waiting on PostgreSQL) counts against neither.
 */
export function uploadBody(body: Readable, limits: UploadLimits): Readable {
  const out = new PassThrough();
  // The pipeline that reads `out` learns of its error; one that breaks off before that pipeline is built
  // (while a connection is taken) must not be an unhandled 'error' event.
  out.on('error', () => undefined);
  body.on('error', (error) => out.destroy(error));
  body.on('close', () => {
    if (!body.readableEnded) out.destroy(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }));
  });
  body.pipe(out);
  const stopIdle = watchIdle(body, out, limits.uploadIdleTimeoutMs);
  const stopRate = watchRate(body, out, limits);
  const stop = () => {
    stopIdle();
    stopRate();
  };
  body.on('end', stop);
  out.on('close', stop);
  return out;
}

/** Ends `out` with 408 UPLOAD_IDLE once `body` sent no byte for `idleMs` while not paused by back-pressure. */
function watchIdle(body: Readable, out: PassThrough, idleMs: number): () => void {
  let idle: NodeJS.Timeout | undefined;
  const watch = () => {
    clearTimeout(idle);
    idle = setTimeout(() => {
      // Paused by back-pressure: the import is behind, not the client.
      if (body.readableFlowing === false) return watch();
      out.destroy(uploadIdle(idleMs));
    }, idleMs).unref();
  };
  body.on('data', watch);
  watch();
  return () => clearTimeout(idle);
}

/**
 * Ends `out` with 408 UPLOAD_TOO_SLOW when `body` sent fewer than `minUploadBytesPerSecond` over a window of
 * `uploadRateWindowMs` (windows follow each other; time paused by back-pressure moves the window's start on).
 */
function watchRate(body: Readable, out: PassThrough, limits: UploadLimits): () => void {
  const { minUploadBytesPerSecond: minRate, uploadRateWindowMs: windowMs } = limits;
  if (minRate <= 0) return () => undefined;
  let windowStart = Date.now();
  let windowBytes = 0;
  let pausedAt: number | null = null;
  body.on('data', (chunk: Buffer | string) => {
    windowBytes += chunk.length;
  });
  body.on('pause', () => {
    pausedAt ??= Date.now();
  });
  body.on('resume', () => {
    if (pausedAt !== null) windowStart += Date.now() - pausedAt;
    pausedAt = null;
  });
  const check = setInterval(
    () => {
      const now = Date.now();
      if (pausedAt !== null || now - windowStart < windowMs) return;
      if (windowBytes * 1000 < minRate * (now - windowStart)) {
        out.destroy(uploadTooSlow(minRate, windowMs));
        return;
      }
      windowStart = now;
      windowBytes = 0;
    },
    Math.min(RATE_CHECK_MAX_MS, Math.ceil(windowMs / 4)),
  );
  check.unref();
  return () => clearInterval(check);
}

/** 408 UPLOAD_IDLE: the client sent no byte of the body for the idle timeout. */
function uploadIdle(idleMs: number): AppError {
  return new AppError(
    'UPLOAD_IDLE',
    `No byte of the body arrived for ${idleMs} ms (IMPORT_UPLOAD_IDLE_TIMEOUT_MS); nothing was stored`,
  );
}

/** 408 UPLOAD_TOO_SLOW: the client sent the body slower than the minimum rate. */
function uploadTooSlow(minRate: number, windowMs: number): AppError {
  return new AppError(
    'UPLOAD_TOO_SLOW',
    `The body arrived slower than ${minRate} bytes a second over ${windowMs} ms (IMPORT_MIN_UPLOAD_BYTES_PER_SECOND); nothing was stored`,
  );
}
