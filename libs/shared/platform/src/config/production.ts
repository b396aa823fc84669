/**
 * What production refuses beyond the schema. A weak JWT_SECRET lets anyone who guesses it sign tokens of
 * any user; TRUST_PROXY=true (or a CIDR covering every address) lets any client choose its address with
 * X-Forwarded-For, and so pass an API key's IP whitelist and the per-address throttles.
 */
export const PRODUCTION_JWT_SECRET_MIN_BYTES = 32;
/**
 * A secret drawn at random from any usual alphabet (hex, base64, printable) has far more distinct characters
 * than this; a word repeated to length, or one character, has fewer.
 */
export const PRODUCTION_JWT_SECRET_MIN_DISTINCT = 12;

const TRUST_EVERYONE = new Set(['true', '0.0.0.0/0', '::/0']);

/** The reason production refuses this environment, naming the setting; null when it may start. */
export function productionRefusal(value: { JWT_SECRET: string; TRUST_PROXY: string }): string | null {
  const secret = value.JWT_SECRET;
  if (Buffer.byteLength(secret) < PRODUCTION_JWT_SECRET_MIN_BYTES)
    return `JWT_SECRET must be at least ${PRODUCTION_JWT_SECRET_MIN_BYTES} random bytes when NODE_ENV=production (e.g. openssl rand -base64 48)`;
  if (new Set(secret).size < PRODUCTION_JWT_SECRET_MIN_DISTINCT)
    return `JWT_SECRET does not look random (fewer than ${PRODUCTION_JWT_SECRET_MIN_DISTINCT} distinct characters); use at least ${PRODUCTION_JWT_SECRET_MIN_BYTES} random bytes when NODE_ENV=production (e.g. openssl rand -base64 48)`;
  const trusted = value.TRUST_PROXY.split(',').map((part) => part.trim().toLowerCase());
  if (trusted.some((part) => TRUST_EVERYONE.has(part)))
    return 'TRUST_PROXY must not trust every address when NODE_ENV=production (it would let any client set its IP with X-Forwarded-For); give the hop count or the proxies’ addresses/CIDRs';
  return null;
}
