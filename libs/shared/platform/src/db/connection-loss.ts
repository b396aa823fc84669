/**
 * What pg and Sequelize say when a connection died under a statement (terminated, reset, pool gone), what pg
 * says of a pooled client that was closed when its connection died, should a statement reach it, and what
 * pg says when no connection could be had in time: its Pool waiting for a client (as Sequelize's
 * ConnectionAcquireTimeoutError), its Client connecting (`timeout expired`, as Sequelize's ConnectionError),
 * and its client-side `query_timeout` (`Query read timeout`: no answer came, so the link is taken as cut and
 * the connection is not used again).
 */
const LOST_CONNECTION =
  /terminating connection|Connection terminated|connection error and is not queryable|Client was closed and is not queryable|timeout exceeded when trying to connect|^timeout expired$|^Query read timeout$/i;
/**
 * The socket's own errors when the server closed it under a write or a read, or refused or could not be
 * reached for a new connection (pg's Pool reports these as they are; Sequelize wraps them as its
 * Connection errors).
 */
const SOCKET_LOST = new Set(['ECONNRESET', 'EPIPE', 'ECONNREFUSED', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND']);

/**
 * True when a statement failed because its PostgreSQL connection was lost (pg_terminate_backend, a restart,
 * a failover, a network cut), not because of the statement: the same request can succeed on a new
 * connection, which the pool opens by itself. SQLSTATE classes 08 (connection exception) and 57P (operator
 * intervention), Sequelize's connection errors, a reset or broken socket, and pg's messages for a socket that
 * closed.
 */
export function isConnectionLoss(error: unknown): boolean {
  if (!isErrorLike(error)) return false;
  const failure = error as Error & { code?: unknown; original?: { code?: unknown; message?: unknown } };
  if (typeof failure.name === 'string' && failure.name.startsWith('SequelizeConnection')) return true;
  const code = sqlState(error);
  if (typeof code === 'string' && (code.startsWith('08') || code.startsWith('57P') || SOCKET_LOST.has(code)))
    return true;
  const message = failure.original?.message ?? failure.message;
  return typeof message === 'string' && LOST_CONNECTION.test(message);
}

/**
 * True when a statement failed because a number it computed does not fit its column (SQLSTATE 22003), e.g.
 * a quantity that many receipts or adjustments have pushed past numeric(18,4): the input's fault, not the
 * service's, and the statement's transaction has stored nothing.
 */
export function isValueOutOfRange(error: unknown): boolean {
  return sqlState(error) === '22003';
}

/**
 * SQLSTATEs of a statement PostgreSQL gave up on because of how long it waited, not because of what it
 * asked: lock_not_available (lock_timeout), query_canceled (statement_timeout), and the session ended by
 * idle_in_transaction_session_timeout. The same request may succeed once the contention is gone.
 */
const GAVE_UP_WAITING: Record<string, 'lock' | 'statement' | 'idle'> = {
  '55P03': 'lock',
  '57014': 'statement',
  '25P03': 'idle',
};

/** Which wait PostgreSQL gave up on under a statement (lock, statement or idle-in-transaction timeout), if any. */
export function timedOutWait(error: unknown): 'lock' | 'statement' | 'idle' | null {
  const code = sqlState(error);
  return typeof code === 'string' ? (GAVE_UP_WAITING[code] ?? null) : null;
}

/** Sequelize wraps pg's error as `original`; statements run on a pool client directly throw pg's own. */
function sqlState(error: unknown): unknown {
  if (!isErrorLike(error)) return undefined;
  const failure = error as Error & { code?: unknown; original?: { code?: unknown } };
  return failure.original?.code ?? failure.code;
}

/**
 * An error by its shape, not by `instanceof Error`: the socket's own errors are made by Node's core, whose
 * `Error` is not the one of a module loaded in another realm (a vm context, as under jest), so a read reset
 * would otherwise not count as connection loss there.
 */
function isErrorLike(error: unknown): error is Error {
  return typeof error === 'object' && error !== null && typeof (error as { message?: unknown }).message === 'string';
}
