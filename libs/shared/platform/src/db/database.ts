import pg from 'pg';
import { Sequelize } from 'sequelize';
import type { Config } from '../config/index.js';

// PostgreSQL BIGINT and NUMERIC arrive as strings by default; quantities and counts here fit in a double.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value) => Number(value));

/**
 * pg's Client with an 'error' listener from birth, for Sequelize's pool. Sequelize attaches its own only once
 * connect() has resolved, a microtask later; when PostgreSQL ends a connection in the same read that
 * completes its start-up (pg_terminate_backend of a connection just opened, a failover, a restart), pg
 * emitted the error with no listener, which throws and ended the whole process. This listener marks the
 * connection as Sequelize's does (`_invalid`), so the pool never hands it out again.
 */
export class PoolClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super(config);
    this.on('error', () => {
      (this as { _invalid?: boolean })._invalid = true;
    });
  }
}

/** The pg module as Sequelize sees it: pg itself, with the pool's clients born listening for errors. */
const pgForPool: typeof pg = Object.create(pg, { Client: { value: PoolClient } }) as typeof pg;

/**
 * `connectTimeoutMs`: a server that does not accept a connection in this time fails the statement (a read
 * replica does, so its reads go to the primary); unset: pg's default, wait as long as TCP does.
 */
export function createSequelize(
  config: Pick<Config, 'databaseUrl' | 'databasePoolMax'>,
  options: { connectTimeoutMs?: number } = {},
): Sequelize {
  return new Sequelize(config.databaseUrl, {
    dialect: 'postgres',
    dialectModule: pgForPool,
    ...(options.connectTimeoutMs ? { dialectOptions: { connectionTimeoutMillis: options.connectTimeoutMs } } : {}),
    logging: false,
    benchmark: false,
    pool: { max: config.databasePoolMax, min: 0, idle: 10_000, acquire: 30_000 },
    define: { underscored: true, timestamps: true },
  });
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
  const client = new pg.Client({ connectionString: maintenanceUrl });
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
  const client = new pg.Client({ connectionString: maintenanceUrl });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${quoteIdentifier(database)} WITH (FORCE)`);
  } finally {
    await client.end();
  }
}
