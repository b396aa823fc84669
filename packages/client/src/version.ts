/**
 * The dated API version this client's types were generated for: sent as `Wms-Version` on every call, so
 * the answers are the shapes the types say whatever version the key is pinned to. Regenerated types move it
 * (tools/client-version.spec.ts holds it to the service's newest).
 */
export const API_VERSION = '2026-12-01';
