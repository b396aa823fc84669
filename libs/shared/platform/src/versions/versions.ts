import { AppError } from '../errors/index.js';
import { quantitiesAsDecimalStrings, type QuantityFormat } from './changes/quantities-as-decimal-strings.js';
import type { VersionChange } from './version-change.js';

/**
 * The dated versions of the integration API inside the path version `v1`, oldest first; a version is named by
 * the day it shipped. A version names the changes it ships; the one before it is produced by running them
 * backward. Which version a caller gets without asking, and which are deprecated, is the deployment's choice
 * (`API_DEFAULT_VERSION`, `API_DEPRECATED_VERSIONS`: policy.ts), never a consequence of a newer one shipping.
 */
export interface ApiVersionSpec {
  version: string;
  changes: readonly VersionChange[];
}

export const API_VERSION_LIST: readonly ApiVersionSpec[] = [
  { version: '2026-11-21', changes: [] },
  { version: '2026-12-01', changes: [quantitiesAsDecimalStrings] },
];

/** A dated version, e.g. `2026-12-01`. */
export type ApiVersion = string;

export const API_VERSIONS: readonly ApiVersion[] = API_VERSION_LIST.map((spec) => spec.version);
export const NEWEST_API_VERSION: ApiVersion = API_VERSIONS[API_VERSIONS.length - 1]!;
export const OLDEST_API_VERSION: ApiVersion = API_VERSIONS[0]!;

/** The request header naming the version of one request, and the answer header naming the version served. */
export const VERSION_HEADER = 'Wms-Version';

/** Where a deprecated version's `Link: <…>; rel="deprecation"` points: the changelog the docs serve. */
export const CHANGELOG_PATH = '/docs/changelog';

export function isApiVersion(value: unknown): value is ApiVersion {
  return typeof value === 'string' && API_VERSIONS.includes(value);
}

export function versionSpec(version: ApiVersion): ApiVersionSpec {
  const spec = API_VERSION_LIST.find((candidate) => candidate.version === version);
  if (!spec) throw unknownVersion(version);
  return spec;
}

/** 400 VALIDATION_FAILED naming the known versions. */
export function unknownVersion(value: string, path = VERSION_HEADER): AppError {
  return AppError.validation(`Unknown API version ${JSON.stringify(value.slice(0, 40))}`, [
    { path, message: `must be one of ${API_VERSIONS.join(', ')}` },
  ]);
}

/**
 * The version of a request: its header's when it sends one (unknown: 400), else its key's or subscription's,
 * else the deployment's default.
 */
export function requestedVersion(
  header: string | string[] | undefined,
  pinned: ApiVersion | undefined,
  defaultVersion: ApiVersion,
): ApiVersion {
  const sent = Array.isArray(header) ? header[0] : header;
  if (sent !== undefined && sent !== '') {
    const version = sent.trim();
    if (!isApiVersion(version)) throw unknownVersion(version);
    return version;
  }
  return pinned && isApiVersion(pinned) ? pinned : defaultVersion;
}

/** The changes to run backward, newest first, to bring a newest-shape body down to `version`. */
export function changesAfter(version: ApiVersion): VersionChange[] {
  const index = API_VERSIONS.indexOf(version);
  return API_VERSION_LIST.slice(index + 1)
    .flatMap((spec) => spec.changes)
    .reverse();
}

/** Whether `version` sends quantities as decimal strings (it is, or follows, the version that made them so). */
export function quantityFormatOf(version: ApiVersion): QuantityFormat {
  const shipped = API_VERSION_LIST.findIndex((spec) => spec.changes.includes(quantitiesAsDecimalStrings));
  return API_VERSIONS.indexOf(version) >= shipped ? 'decimal' : 'number';
}
