/**
 * Private PostgreSQL servers for the read-replica tests and benchmarks: a primary and a hot standby
 * streaming from it, made from the installed binaries on free loopback ports in a temporary directory,
 * never the shared server. PostgreSQL refuses to run as root, so under root its commands run as the
 * `postgres` user.
 */
export interface PrivatePostgres {
  port: number;
  /** The URL of `database` on this server. */
  url(database: string): string;
  /** Runs one statement on its `postgres` database and answers the rows. */
  query<Row = Record<string, unknown>>(text: string): Promise<Row[]>;
  /** Stops it (fast shutdown: sessions are ended) and resolves once it is down. */
  stop(): Promise<void>;
  /** Starts it again after stop(), with its data. */
  start(): Promise<void>;
}

export interface PrivateReplication {
  primary: PrivatePostgres;
  standby: PrivatePostgres;
  /** The same database URL on the standby (a standby has every database of its primary). */
  standbyUrl(primaryUrl: string): string;
  /** Stops both servers and removes their files. */
  stop(): Promise<void>;
}

/**
 * Starts a primary (`initdb`, trust authentication on loopback) and a hot standby made from it with
 * `pg_basebackup -R`, streaming. Resolves once the standby answers reads. Call stop() when done.
 */
export function startPostgresReplication(): Promise<PrivateReplication>;
