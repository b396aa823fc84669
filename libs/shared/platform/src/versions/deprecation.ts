import { CHANGELOG_PATH, VERSION_HEADER, versionSpec, type ApiVersion } from './versions.js';

/**
 * The headers of an answer served under `version`: `Wms-Version`, and for a deprecated version
 * `Deprecation: @<unix time>` (RFC 9745), `Sunset: <HTTP date>` (RFC 8594) and the changelog as
 * `Link: <…>; rel="deprecation"`. Computed once per version.
 */
export function versionHeaders(version: ApiVersion): Readonly<Record<string, string>> {
  let headers = cache.get(version);
  if (!headers) {
    headers = build(version);
    cache.set(version, headers);
  }
  return headers;
}

const cache = new Map<ApiVersion, Readonly<Record<string, string>>>();

function build(version: ApiVersion): Readonly<Record<string, string>> {
  const spec = versionSpec(version);
  const headers: Record<string, string> = { [VERSION_HEADER]: version };
  if (spec.deprecatedAt) {
    headers.Deprecation = `@${Math.floor(Date.parse(`${spec.deprecatedAt}T00:00:00Z`) / 1000)}`;
    headers.Link = `<${CHANGELOG_PATH}>; rel="deprecation"`;
  }
  if (spec.sunsetAt) headers.Sunset = new Date(`${spec.sunsetAt}T00:00:00Z`).toUTCString();
  return Object.freeze(headers);
}
