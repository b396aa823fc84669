import { TRUST_PROXY_MAX_HOPS, trustsAnyClient } from './trust-proxy.js';

/**
 * What production refuses beyond the schema. A weak JWT_SECRET lets anyone who guesses it sign tokens of
 * any user; TRUST_PROXY=true (or ranges covering every address, or a hop count longer than any real chain)
 * lets any client choose its address with X-Forwarded-For, and so pass an API key's IP whitelist and the
 * per-address throttles.
 */

export const PRODUCTION_JWT_SECRET_MIN_BYTES = 32;
/**
 * A secret drawn at random from any usual alphabet (hex, base64, printable) has far more distinct characters
 * than this; a word repeated to length, or one character, has fewer.
 */
export const PRODUCTION_JWT_SECRET_MIN_DISTINCT = 12;

/** The reason production refuses this environment, naming the setting; null when it may start. */
export function productionRefusal(value: { JWT_SECRET: string; TRUST_PROXY: string }): string | null {
  const secret = value.JWT_SECRET;
  if (Buffer.byteLength(secret) < PRODUCTION_JWT_SECRET_MIN_BYTES)
    return `JWT_SECRET must be at least ${PRODUCTION_JWT_SECRET_MIN_BYTES} random bytes when NODE_ENV=production (e.g. openssl rand -base64 48)`;
  if (new Set(secret).size < PRODUCTION_JWT_SECRET_MIN_DISTINCT)
    return `JWT_SECRET does not look random (fewer than ${PRODUCTION_JWT_SECRET_MIN_DISTINCT} distinct characters); use at least ${PRODUCTION_JWT_SECRET_MIN_BYTES} random bytes when NODE_ENV=production (e.g. openssl rand -base64 48)`;
  const trustsAny = trustsAnyClient(value.TRUST_PROXY);
  if (trustsAny)
    return `TRUST_PROXY must not trust every address when NODE_ENV=production (it ${trustsAny}, so any client could set its IP with X-Forwarded-For; at most ${TRUST_PROXY_MAX_HOPS} hops are believed); give the hop count or the proxies’ addresses/CIDRs`;
  return null;
}
