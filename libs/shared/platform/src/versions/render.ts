import { API_VERSION_LIST, changesAfter, NEWEST_API_VERSION, type ApiVersion } from './versions.js';

const ALL_CHANGES = API_VERSION_LIST.flatMap((spec) => spec.changes);

/** A body as the newest version sends it, whatever older sources (stored events, computed numbers) it holds. */
export function toNewestShape(body: unknown): unknown {
  return ALL_CHANGES.reduce((shaped, change) => change.current(shaped), body);
}

/**
 * An answer, webhook body or feed page as `version` sends it: the newest shape, run backward through every
 * change newer than `version`.
 */
export function renderForVersion(body: unknown, version: ApiVersion): unknown {
  const newest = toNewestShape(body);
  if (version === NEWEST_API_VERSION) return newest;
  return changesAfter(version).reduce((shaped, change) => change.down(shaped), newest);
}
