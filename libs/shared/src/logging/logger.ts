import { pino, type Logger } from 'pino';
import { currentContext } from '../context/index.js';

export type { Logger };

/** Paths pino removes from every line: credentials must never reach a log. */
export const redactedPaths = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  'headers.authorization',
  'headers["x-api-key"]',
  '*.password',
  '*.currentPassword',
  '*.newPassword',
  '*.passwordHash',
  '*.token',
  '*.accessToken',
  '*.refreshToken',
  '*.rawKey',
  '*.keyHash',
  '*.secret',
  'password',
  'secret',
];

export function createLogger(options: { level: string; name: string; destination?: pino.DestinationStream }): Logger {
  const destination = options.destination ?? bufferedStdout();
  const plain = {
    name: options.name,
    level: options.level,
    base: { service: options.name },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  const logger = pino(
    {
      ...plain,
      redact: { paths: redactedPaths, censor: '[redacted]' },
      // The request id (or job id) of whatever is running is put on every line without passing loggers around.
      mixin() {
        const context = currentContext();
        if (!context) return {};
        const { requestId, jobId, traceId } = context;
        if (traceId) return jobId ? { requestId, jobId, traceId } : { requestId, traceId };
        return jobId ? { requestId, jobId } : { requestId };
      },
    },
    destination,
  );
  plainTwins.set(logger, () => pino(plain, destination));
  return logger;
}

/** For each logger createLogger made: how to make its twin without redaction and mixin, on the same output. */
const plainTwins = new WeakMap<Logger, () => Logger>();

/**
 * A logger for lines that carry every field themselves, the request's id included (the one line per answered
 * request): the same output, name and level as `logger`, without its redaction pass and its context mixin,
 * which such a line does not need. Its fields must never hold a secret.
 */
export function explicitLineLogger(logger: Logger): Logger {
  const make = plainTwins.get(logger);
  return make ? make() : unredactedChild(logger);
}

/**
 * A child for lines whose every field the caller sets and none of which can hold a secret (the one line per
 * answered request): it skips the redaction pass, which costs about as much again as the rest of such a line.
 */
export function unredactedChild(logger: Logger): Logger {
  return logger.child({}, { redact: { paths: [] } });
}

/** Standard output written in blocks of 4 kB, and at least every 250 ms; pino writes what is left at exit. */
function bufferedStdout(): pino.DestinationStream {
  const destination = pino.destination({ dest: 1, sync: false, minLength: 4096 });
  setInterval(() => destination.flush(), 250).unref();
  return destination;
}
