/** A read waits for a replica at least this many of its round trips: asked, answered, asked again. */
export const ROUND_TRIPS_OF_WAIT = 3;

/**
 * How long a read waits for a replica to replay its tenant's last write: READ_REPLICA_MAX_WAIT_MS, or
 * `ROUND_TRIPS_OF_WAIT` round trips of the slowest replica asked when that is longer (a replica not measured
 * yet counts for none). A bound under one question and answer would send every recent writer's reads to
 * the primary on a slow link, where they queue.
 */
export function replicaWaitMs(maxWaitMs: number, roundTripsMs: ReadonlyArray<number | null>): number {
  const slowest = Math.max(0, ...roundTripsMs.map((ms) => ms ?? 0));
  return Math.max(maxWaitMs, Math.ceil(ROUND_TRIPS_OF_WAIT * slowest));
}
