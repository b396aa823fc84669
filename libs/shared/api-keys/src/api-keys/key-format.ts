import { hash, randomInt } from 'node:crypto';
import { crc32 } from 'node:zlib';

/**
 * Raw key: `wms_` + 30 random base62 characters (~178 bits) + a 6-character base62 CRC32 of what
 * precedes it, as GitHub tokens do. The checksum lets a malformed or mistyped key be refused before any
 * look-up, and lets secret scanners recognise a leaked key.
 */
export const API_KEY_PREFIX = 'wms_';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_LENGTH = 30;
const CHECKSUM_LENGTH = 6;
export const API_KEY_LENGTH = API_KEY_PREFIX.length + RANDOM_LENGTH + CHECKSUM_LENGTH;
/** How much of the raw key is stored in clear for display. */
export const KEY_PREFIX_LENGTH = 10;
const KEY_PATTERN = new RegExp(`^${API_KEY_PREFIX}[0-9A-Za-z]{${RANDOM_LENGTH + CHECKSUM_LENGTH}}$`);

function toBase62(value: number, width: number): string {
  let out = '';
  let rest = value;
  while (rest > 0) {
    out = BASE62[rest % 62] + out;
    rest = Math.floor(rest / 62);
  }
  return out.padStart(width, '0');
}

function checksumOf(body: string): string {
  return toBase62(crc32(body), CHECKSUM_LENGTH);
}

export function generateRawKey(): string {
  let random = '';
  for (let i = 0; i < RANDOM_LENGTH; i++) random += BASE62[randomInt(62)];
  const body = API_KEY_PREFIX + random;
  return body + checksumOf(body);
}

/** True when the key has the right prefix, alphabet, length and checksum; costs no I/O. */
export function isWellFormedKey(rawKey: string): boolean {
  if (rawKey.length !== API_KEY_LENGTH || !KEY_PATTERN.test(rawKey)) return false;
  const body = rawKey.slice(0, -CHECKSUM_LENGTH);
  return checksumOf(body) === rawKey.slice(-CHECKSUM_LENGTH);
}

/** The only stored form of a key: SHA-256, hex. */
export function hashKey(rawKey: string): string {
  return hash('sha256', rawKey, 'hex');
}

export function displayPrefix(rawKey: string): string {
  return rawKey.slice(0, KEY_PREFIX_LENGTH);
}
