import pg from 'pg';
import { configVariables, type Config, type DatabaseBounds } from '../config/index.js';

/**
 * What bounds the waits of one PostgreSQL connection: the server's own timeouts, sent at start-up
 * (0: that wait has no bound on the server), how long connecting may take, and the TCP keepalive that ends
 * a connection whose peer is gone without a word.
 */
export interface SessionBounds {
  statementTimeoutMs: number;
  lockTimeoutMs: number;
  idleInTransactionTimeoutMs: number;
  connectTimeoutMs: number;
  keepAliveDelayMs: number;
}

/**
 * The kinds of work whose connections are bounded differently (ADR 0130): a gateway's requests; the workers'
 * jobs (bulk batches, import chunks, snapshots, the dispatchers, the relay); setting data up outside any
 * request or job (the seed, an operator's command, a benchmark's data), whose one statement may load
 * millions of rows; migrations, whose statements may
 * build an index for minutes but must not queue every request behind a lock they wait for; an upload's COPY,
 * which lasts as long as the body streams (bounded by the upload's idle and rate limits); a session that
 * only listens or holds an advisory lock while a peer migrates.
 */
export type SessionWork = 'requests' | 'jobs' | 'setup' | 'migrations' | 'copy' | 'session';

/** A statement's answer that does not come this long after the server would have cancelled it: the link is cut. */
export const ANSWER_MARGIN_MS = 1_000;
const MIGRATION_LOCK_TIMEOUT_MS = 10_000;
/** Migrations and set-up may think between statements of one transaction; a lost one still ends in a minute. */
const LONG_IDLE_IN_TRANSACTION_TIMEOUT_MS = 60_000;

function defaultOf(name: keyof typeof configVariables): number {
  return configVariables[name].schema.validate(undefined).value as number;
}

/** The settings' defaults, for a caller that names no bounds (a command, a spec's own database). */
export function defaultDatabaseBounds(): DatabaseBounds {
  return {
    connectTimeoutMs: defaultOf('DATABASE_CONNECT_TIMEOUT_MS'),
    acquireTimeoutMs: defaultOf('DATABASE_ACQUIRE_TIMEOUT_MS'),
    statementTimeoutMs: defaultOf('DATABASE_STATEMENT_TIMEOUT_MS'),
    workerStatementTimeoutMs: defaultOf('DATABASE_WORKER_STATEMENT_TIMEOUT_MS'),
    lockTimeoutMs: defaultOf('DATABASE_LOCK_TIMEOUT_MS'),
    workerLockTimeoutMs: defaultOf('DATABASE_WORKER_LOCK_TIMEOUT_MS'),
    idleInTransactionTimeoutMs: defaultOf('DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS'),
    keepAliveDelayMs: defaultOf('DATABASE_KEEPALIVE_DELAY_MS'),
    handOffPoolMax: defaultOf('DATABASE_BULK_POOL_MAX'),
  };
}

/** The bounds of a connection doing `work`, from the settings (their defaults when `config` names none). */
export function sessionBoundsOf(config: Partial<Pick<Config, 'database'>>, work: SessionWork): SessionBounds {
  const bounds = config.database ?? defaultDatabaseBounds();
  const common = {
    idleInTransactionTimeoutMs: bounds.idleInTransactionTimeoutMs,
    connectTimeoutMs: bounds.connectTimeoutMs,
    keepAliveDelayMs: bounds.keepAliveDelayMs,
  };
  switch (work) {
    case 'requests':
      return { ...common, statementTimeoutMs: bounds.statementTimeoutMs, lockTimeoutMs: bounds.lockTimeoutMs };
    case 'jobs':
      return {
        ...common,
        statementTimeoutMs: bounds.workerStatementTimeoutMs,
        lockTimeoutMs: bounds.workerLockTimeoutMs,
      };
    case 'setup':
      return {
        ...common,
        statementTimeoutMs: 0,
        lockTimeoutMs: bounds.workerLockTimeoutMs,
        idleInTransactionTimeoutMs: LONG_IDLE_IN_TRANSACTION_TIMEOUT_MS,
      };
    case 'migrations':
      return {
        ...common,
        statementTimeoutMs: 0,
        lockTimeoutMs: MIGRATION_LOCK_TIMEOUT_MS,
        idleInTransactionTimeoutMs: LONG_IDLE_IN_TRANSACTION_TIMEOUT_MS,
      };
    case 'copy':
      return { ...common, statementTimeoutMs: 0, lockTimeoutMs: bounds.lockTimeoutMs };
    case 'session':
      return { ...common, statementTimeoutMs: 0, lockTimeoutMs: 0 };
  }
}

/**
 * pg's client settings for `bounds`: the server's timeouts as start-up parameters, and a client-side
 * `query_timeout` a second past the statement timeout, which fails a statement whose answer never comes
 * (a link that accepts and forwards nothing) where the server's own timeout cannot be heard.
 */
export function clientSettingsOf(bounds: SessionBounds): pg.ClientConfig {
  return {
    ...(bounds.statementTimeoutMs
      ? { statement_timeout: bounds.statementTimeoutMs, query_timeout: bounds.statementTimeoutMs + ANSWER_MARGIN_MS }
      : {}),
    ...(bounds.lockTimeoutMs ? { lock_timeout: bounds.lockTimeoutMs } : {}),
    ...(bounds.idleInTransactionTimeoutMs
      ? { idle_in_transaction_session_timeout: bounds.idleInTransactionTimeoutMs }
      : {}),
    connectionTimeoutMillis: bounds.connectTimeoutMs,
    keepAlive: true,
    keepAliveInitialDelayMillis: bounds.keepAliveDelayMs,
  };
}

/** A database to open connections of its own to: its URL and, when known, the settings' bounds. */
export type DatabaseTarget = Pick<Config, 'databaseUrl'> & Partial<Pick<Config, 'database'>>;

/** A connection of its own (LISTEN, COPY, an advisory lock) to `url`, bounded for `work`. */
export function boundedConnection(
  url: string,
  config: Partial<Pick<Config, 'database'>>,
  work: SessionWork,
): pg.ClientConfig {
  return { connectionString: url, ...clientSettingsOf(sessionBoundsOf(config, work)) };
}

/** `Client` whose every connection is bounded by `bounds`, whatever its pool passes it. */
export function boundedClient(base: typeof pg.Client, bounds: SessionBounds): typeof pg.Client {
  const settings = clientSettingsOf(bounds);
  return class extends base {
    constructor(config?: string | pg.ClientConfig) {
      super({ ...(typeof config === 'string' ? { connectionString: config } : config), ...settings });
    }
  };
}
