import { API_VERSIONS, isApiVersion, type ApiVersion } from './versions.js';

/** A version the deployment has marked deprecated: since when, and the last day it is served (its sunset). */
export interface VersionDeprecation {
  version: ApiVersion;
  /** `YYYY-MM-DD`, the day the deprecation took or takes effect (RFC 9745's `Deprecation`). */
  deprecatedAt: string;
  /** `YYYY-MM-DD`, the end of its support (RFC 8594's `Sunset`). */
  sunsetAt: string;
}

/**
 * What a deployment decides of the dated versions: the one a key or subscription created without `apiVersion`
 * gets (and a request with neither a header nor a pinned key is served in), and the ones it has deprecated.
 * A version is deprecated only by being listed here, never because a newer one exists.
 */
export interface VersionPolicy {
  defaultVersion: ApiVersion;
  deprecations: readonly VersionDeprecation[];
}

/** The seed's shapes, the default of a deployment that chooses nothing. */
export const DEFAULT_API_VERSION: ApiVersion = '2026-11-21';

export const DEFAULT_VERSION_POLICY: VersionPolicy = Object.freeze({
  defaultVersion: DEFAULT_API_VERSION,
  deprecations: Object.freeze([]),
});

/** Each version is supported at least this long after the next one ships (docs/changelog.md). */
export const SUPPORT_MONTHS_AFTER_NEXT = 24;

const ENTRY = /^(\d{4}-\d{2}-\d{2})=(\d{4}-\d{2}-\d{2})\/(\d{4}-\d{2}-\d{2})$/;

const isCalendarDate = (text: string) => {
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(text);
};

function addMonths(day: string, months: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCMonth(date.getUTCMonth() + months);
  return date.toISOString().slice(0, 10);
}

/**
 * `API_DEPRECATED_VERSIONS`: comma-separated `version=deprecated/sunset` (the deprecation as an ISO 8601
 * interval of days), e.g. `2026-11-21=2027-06-01/2029-06-01`. Throws an Error saying what is wrong: an
 * unknown version, the newest (there is nothing to move to), a date that is not a day, a sunset before the
 * deprecation or sooner than the support window after the next version shipped, or a version listed twice.
 */
export function parseDeprecatedVersions(text: string): VersionDeprecation[] {
  const entries = text.split(',').map((entry) => entry.trim());
  const deprecations = entries.map((entry) => {
    const match = ENTRY.exec(entry);
    if (!match) throw new Error(`holds "${entry}", not version=YYYY-MM-DD/YYYY-MM-DD`);
    const [, version, deprecatedAt, sunsetAt] = match as unknown as [string, string, string, string];
    if (!isApiVersion(version)) throw new Error(`${version} is not a version (${API_VERSIONS.join(', ')})`);
    const next = API_VERSIONS[API_VERSIONS.indexOf(version) + 1];
    if (next === undefined) throw new Error(`${version} is the newest version; there is none to move to`);
    if (!isCalendarDate(deprecatedAt) || !isCalendarDate(sunsetAt)) {
      throw new Error(`holds "${entry}", a date that is not a calendar day`);
    }
    if (sunsetAt <= deprecatedAt) throw new Error(`${version}'s sunset must follow its deprecation`);
    const earliest = addMonths(next, SUPPORT_MONTHS_AFTER_NEXT);
    if (sunsetAt < earliest) {
      throw new Error(
        `${version} is supported until at least ${earliest} (${SUPPORT_MONTHS_AFTER_NEXT} months after ${next})`,
      );
    }
    return { version, deprecatedAt, sunsetAt };
  });
  if (new Set(deprecations.map((entry) => entry.version)).size !== deprecations.length) {
    throw new Error('lists a version twice');
  }
  return deprecations;
}

export function deprecationOf(policy: VersionPolicy, version: ApiVersion): VersionDeprecation | undefined {
  return policy.deprecations.find((entry) => entry.version === version);
}
