const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A UUID in its text form, as PostgreSQL's uuid columns take it. An id that is not one cannot exist, so it
 * is answered without a query (a uuid column refuses it with an error, not an empty result).
 */
export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}
