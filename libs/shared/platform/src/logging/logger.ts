import { pino, type Logger } from 'pino';
import { currentContext } from '../context/index.js';
import { activeSpanContext } from '../tracing/index.js';

export type { Logger };

/** Fields that hold a credential wherever they appear. */
const SECRET_FIELDS = [
  'password',
  'currentPassword',
  'newPassword',
  'passwordHash',
  'token',
  'accessToken',
  'refreshToken',
  'rawKey',
  'keyHash',
  'secret',
  'secretSealed',
  'authorization',
  'cookie',
];
/** Request headers that carry a credential. */
const SECRET_HEADERS = ['authorization', 'cookie', '["set-cookie"]', '["x-api-key"]'];
const header = (name: string) => (name.startsWith('[') ? `headers${name}` : `headers.${name}`);

/**
 * Paths pino removes from every line: credentials must never reach a log. Each secret field at the top of
 * a line and two levels down (`body.user.password`), and the credential headers of any request or response
 * object on the line.
 */
export const redactedPaths = [
  ...SECRET_FIELDS.flatMap((field) => [field, `*.${field}`, `*.*.${field}`]),
  ...SECRET_HEADERS.flatMap((name) => [header(name), `*.${header(name)}`, `*.*.${header(name)}`]),
];

/** Fields of an error (or of its `original`, `parent`, `cause`, `errors`) that may quote SQL or the values bound to it. */
const QUERY_FIELDS = new Set([
  'sql',
  'parameters',
  'bind',
  'replacements',
  'internalQuery',
  'detail',
  'fields',
  'value',
  'instance',
]);

function withoutQueryFields(value: unknown, depth: number): unknown {
  if (depth > 4 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => withoutQueryFields(item, depth + 1));
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !QUERY_FIELDS.has(key))
      .map(([key, item]) => [key, withoutQueryFields(item, depth + 1)]),
  );
}

/**
 * pino's error serializer, then every field that may quote a query or its parameters (a Sequelize error's
 * `sql` and `parameters`, the same on its `original` and `parent`, a constraint error's offending values)
 * is dropped: a failed statement's parameters can be key hashes, password hashes or personal data.
 */
export function serializeError(error: unknown): unknown {
  if (!(error instanceof Error)) return withoutQueryFields(error, 0);
  return withoutQueryFields(pino.stdSerializers.err(error), 0);
}

export function createLogger(options: { level: string; name: string; destination?: pino.DestinationStream }): Logger {
  const destination = options.destination ?? bufferedStdout();
  const plain = {
    name: options.name,
    level: options.level,
    base: { service: options.name },
    timestamp: pino.stdTimeFunctions.isoTime,
    serializers: { err: serializeError },
  };
  const logger = pino(
    {
      ...plain,
      redact: { paths: redactedPaths, censor: '[redacted]' },
      // The request id (or job id) of whatever is running is put on every line without passing loggers around,
      // and the trace and span of the active span (tracing on) so a line leads to its trace; with tracing off,
      // the trace id a caller's traceparent named.
      mixin() {
        const context = currentContext();
        const span = activeSpanContext();
        const trace = span ? { trace_id: span.traceId, span_id: span.spanId } : undefined;
        if (!context) return trace ?? {};
        const { requestId, jobId, traceId } = context;
        const ids = jobId ? { requestId, jobId } : { requestId };
        if (trace) return { ...ids, ...trace };
        return traceId ? { ...ids, trace_id: traceId } : ids;
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
 * which such a line does not need. Its fields must never hold a secret: ids, a method, a path without its
 * query (keys and tokens never travel in a URL), a status and a duration.
 */
export function explicitLineLogger(logger: Logger): Logger {
  const make = plainTwins.get(logger);
  return make ? make() : unredactedChild(logger);
}

/**
 * A child for lines whose every field the caller sets and none of which can hold a secret (a webhook attempt:
 * ids, an event name, a status, a latency, and the network error's code and message, which name at most the
 * subscriber's host): it skips the redaction pass, which costs about as much again as the rest of such a line.
 * The error serializer still applies.
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
