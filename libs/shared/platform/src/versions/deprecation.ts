import { deprecationOf, type VersionPolicy } from './policy.js';
import { CHANGELOG_PATH, VERSION_HEADER, type ApiVersion } from './versions.js';

/**
 * The headers of an answer served under `version`: `Wms-Version`, and for a version the deployment has
 * deprecated `Deprecation: @<unix time>` (RFC 9745), `Sunset: <HTTP date>` (RFC 8594) and the changelog as
 * `Link: <…>; rel="deprecation"`. Computed once per policy and version.
 */
export function versionHeaders(version: ApiVersion, policy: VersionPolicy): Readonly<Record<string, string>> {
  let byVersion = cache.get(policy);
  if (!byVersion) {
    byVersion = new Map();
    cache.set(policy, byVersion);
  }
  let headers = byVersion.get(version);
  if (!headers) {
    headers = build(version, policy);
    byVersion.set(version, headers);
  }
  return headers;
}

const cache = new WeakMap<VersionPolicy, Map<ApiVersion, Readonly<Record<string, string>>>>();

function build(version: ApiVersion, policy: VersionPolicy): Readonly<Record<string, string>> {
  const headers: Record<string, string> = { [VERSION_HEADER]: version };
  const deprecation = deprecationOf(policy, version);
  if (deprecation) {
    headers.Deprecation = `@${Math.floor(Date.parse(`${deprecation.deprecatedAt}T00:00:00Z`) / 1000)}`;
    headers.Link = `<${CHANGELOG_PATH}>; rel="deprecation"`;
    headers.Sunset = new Date(`${deprecation.sunsetAt}T00:00:00Z`).toUTCString();
  }
  return Object.freeze(headers);
}
