import { AsyncLocalStorage } from 'node:async_hooks';
import { isConnectionLoss, type Database } from '../db/index.js';
import { databaseReads } from '../metrics/index.js';
import type { ReadChoice } from './read-replicas.js';

/** Where the reads of one request go; the gateway sets one for each read request of a caller. */
export interface ReadRoute {
  /** The database for a read of `primary`'s data: one of its replicas, or `primary` itself; null: not routed. */
  choose(primary: Database): Promise<ReadChoice | null>;
  /** A read on `replica` lost its connection: leave it out; the read runs again on the primary. */
  leaveOut(replica: Database, error: unknown): void;
}

const routes = new AsyncLocalStorage<ReadRoute>();

/** Runs `fn` (a request's handlers) with its reads routed by `route`. */
export function runWithReadRoute<T>(route: ReadRoute, fn: () => T): T {
  return routes.run(route, fn);
}

/**
 * Runs a repository's read on the database its request may read: a replica when the gateway routed the
 * request's reads (a read request, whose tenant's last write that replica has replayed), else `db`. Only
 * the reads of inquiries and lists go through here; every other statement, and any read outside a routed
 * request (a write, a worker's job), stays on `db`. A replica that fails under the read is left out and the
 * read runs again on `db`, so a replica going down is never an error a client sees.
 */
export async function routedRead<T>(db: Database, read: (from: Database) => Promise<T>): Promise<T> {
  const route = routes.getStore();
  if (!route) return read(db);
  const choice = await route.choose(db);
  if (choice === null) return read(db);
  if (choice.db === db) {
    databaseReads.inc({ pool: choice.pool, reason: choice.reason });
    return read(db);
  }
  try {
    const rows = await read(choice.db);
    databaseReads.inc({ pool: 'replica', reason: choice.reason });
    return rows;
  } catch (error) {
    if (!isConnectionLoss(error)) throw error;
    route.leaveOut(choice.db, error);
    databaseReads.inc({ pool: 'primary', reason: 'replica_failed' });
    return read(db);
  }
}
