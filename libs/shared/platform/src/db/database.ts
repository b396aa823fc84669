import pg from 'pg';
import { Sequelize, type Options } from 'sequelize';
import type { Config } from '../config/index.js';
import { refusePastDeadline } from '../context/index.js';
import { PoolClient, beforeEachStatement, pgForSequelize } from './sequelize-adapter.js';
import {
  boundedClient,
  boundedConnection,
  defaultDatabaseBounds,
  sessionBoundsOf,
  type SessionBounds,
  type SessionWork,
} from './session-bounds.js';

// PostgreSQL BIGINT and NUMERIC arrive as strings by default; quantities and counts here fit in a double.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value) => Number(value));

/**
 * How a process's DATABASE_POOL_MAX connections to one database split: Sequelize's pool (transactions,
 * `sequelize.query`) takes the larger half, the statement pool (pg's own `Pool`: prepared statements of the
 * hot reads, session work) the smaller; together never more than the setting (at least 2).
 */
export function connectionBudget(max: number): { sequelize: number; statements: number } {
  const statements = Math.max(1, Math.floor(max / 2));
  return { sequelize: Math.max(1, max - statements), statements };
}

/**
 * Which of pg's own pools a prepared statement runs on: `reads`, the statement pool of the hot reads
 * (inquiries, lists, job rows); `handOffs`, a small pool of its own for handing bulk calls over (a bulk
 * call's entries stored), so a burst of them, or a slow link under them, never keeps a read waiting for a
 * connection.
 */
export type StatementPool = 'reads' | 'handOffs';

/**
 * Sequelize with pg's own pools beside it: all are made from the same settings and closed together by
 * `close()`, at the step of a shutdown where the database closes.
 */
class ServiceSequelize extends Sequelize {
  private closing: Promise<void> | undefined;

  constructor(
    url: string,
    options: Options,
    readonly pools: Record<StatementPool, pg.Pool>,
  ) {
    super(url, options);
  }

  override close(): Promise<void> {
    this.closing ??= Promise.allSettled([super.close(), ...Object.values(this.pools).map((pool) => pool.end())]).then(
      (closed) => {
        for (const outcome of closed) if (outcome.status === 'rejected') throw outcome.reason;
      },
    );
    return this.closing;
  }
}

/** A statement pool (`reads` unless said) of a database made by `createSequelize`. */
export function statementPoolOf(sequelize: Sequelize, pool: StatementPool = 'reads'): pg.Pool {
  if (!(sequelize instanceof ServiceSequelize)) throw new Error('The database was not made by createSequelize');
  return sequelize.pools[pool];
}

const IDLE_MS = 10_000;
/** How long a worker's statement waits for a pooled connection: its job has no caller waiting on it. */
const WORKER_ACQUIRE_MS = 30_000;

export interface PoolOptions {
  /** What the connections do, which decides their timeouts (`sessionBoundsOf`); default: setup. */
  work?: SessionWork;
  /** Overrides of those bounds (a read replica's connect timeout). */
  bounds?: Partial<SessionBounds>;
  /** How long a statement waits for a free connection; default: the setting for requests, else 30 s. */
  acquireTimeoutMs?: number;
}

/** One of pg's pools, its connections bounded by `bounds`, a statement waiting `acquireMs` for one at most. */
function boundedPool(url: string, max: number, bounds: SessionBounds, acquireMs: number): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    idleTimeoutMillis: IDLE_MS,
    Client: boundedClient(pg.Client, bounds),
    // How long a statement waits for a client, as Sequelize's `acquire` (the client's own connect is bounded
    // by the connect timeout its class sets).
    connectionTimeoutMillis: acquireMs,
  });
  // An idle client whose connection ended: the pool drops it and opens another when one is asked for.
  pool.on('error', () => undefined);
  return pool;
}

/**
 * The connections of one process to one database: Sequelize's pool and, beside it, pg's own pools for what
 * Sequelize offers no door to (named prepared statements, one connection's session): the reads', sized by
 * `connectionBudget`, and the bulk hand-offs' (DATABASE_BULK_POOL_MAX). Every connection of all carries the bounds of its work (statement, lock and
 * idle-in-transaction timeouts, a connect timeout, TCP keepalives; ADR 0130), and a statement waits for a
 * free connection at most `acquireTimeoutMs`, which counts as a lost connection (503 Retry-After).
 * Inside a request with a deadline, a statement asked for once it has passed is refused (`refusePastDeadline`).
 */
export function createSequelize(
  config: Pick<Config, 'databaseUrl' | 'databasePoolMax'> & Partial<Pick<Config, 'database'>>,
  options: PoolOptions = {},
): Sequelize {
  const work = options.work ?? 'setup';
  const bounds = { ...sessionBoundsOf(config, work), ...options.bounds };
  const acquireMs =
    options.acquireTimeoutMs ??
    (work === 'requests' ? (config.database ?? defaultDatabaseBounds()).acquireTimeoutMs : WORKER_ACQUIRE_MS);
  const budget = connectionBudget(config.databasePoolMax);
  const statementPool = (max: number) => boundedPool(config.databaseUrl, max, bounds, acquireMs);
  const handOffs = (config.database ?? defaultDatabaseBounds()).handOffPoolMax;
  const sequelize = new ServiceSequelize(
    config.databaseUrl,
    {
      dialect: 'postgres',
      dialectModule: pgForSequelize(boundedClient(PoolClient, bounds)),
      logging: false,
      benchmark: false,
      pool: { max: budget.sequelize, min: 0, idle: IDLE_MS, acquire: acquireMs },
      define: { underscored: true, timestamps: true },
    },
    { reads: statementPool(budget.statements), handOffs: statementPool(handOffs) },
  );
  // A request answered 503 at its deadline: its next statement fails, so its transaction rolls back.
  beforeEachStatement(sequelize, refusePastDeadline);
  return sequelize;
}

function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** Splits a database URL into the database name and a URL of the server's maintenance database. */
export function describeDatabaseUrl(databaseUrl: string): { database: string; maintenanceUrl: string } {
  const url = new URL(databaseUrl);
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (!database) throw new Error('DATABASE_URL names no database');
  url.pathname = '/postgres';
  return { database, maintenanceUrl: url.toString() };
}

/** Creates the database named by the URL when it does not exist yet. */
export async function ensureDatabase(databaseUrl: string, options: { template?: string } = {}): Promise<boolean> {
  const { database, maintenanceUrl } = describeDatabaseUrl(databaseUrl);
  // A connection of its own: CREATE DATABASE runs on the server's maintenance database, outside any pool.
  const client = new pg.Client(boundedConnection(maintenanceUrl, {}, 'session'));
  await client.connect();
  try {
    const existing = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (existing.rowCount) return false;
    const template = options.template ? ` TEMPLATE ${quoteIdentifier(options.template)}` : '';
    try {
      await client.query(`CREATE DATABASE ${quoteIdentifier(database)}${template}`);
    } catch (error) {
      // Another process created it between our check and our CREATE.
      if ((error as { code?: string }).code !== '42P04') throw error;
      return false;
    }
    return true;
  } finally {
    await client.end();
  }
}

export async function dropDatabase(databaseUrl: string): Promise<void> {
  const { database, maintenanceUrl } = describeDatabaseUrl(databaseUrl);
  // A connection of its own: DROP DATABASE runs on the server's maintenance database, outside any pool.
  const client = new pg.Client(boundedConnection(maintenanceUrl, {}, 'session'));
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${quoteIdentifier(database)} WITH (FORCE)`);
  } finally {
    await client.end();
  }
}
