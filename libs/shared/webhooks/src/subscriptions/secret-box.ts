import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { Config } from '@wms/platform';

/** A sealed value today: `v2:<key id>:<base64 of iv | tag | ciphertext>`. */
const VERSION = 'v2';
/** Values sealed before the key ring existed, under a key derived from JWT_SECRET. */
const LEGACY_VERSION = 'v1';
/** The ring used outside production when SECRETS_ENCRYPTION_KEYS is unset. */
export const DERIVED_KEY_ID = 'derived';

export interface SealingKey {
  id: string;
  key: Buffer;
}

function deriveFromJwtSecret(jwtSecret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', jwtSecret, 'wms-webhook-secrets', 'subscription-secret-v1', 32));
}

/**
 * Subscription secrets must be readable for HMAC signing, so they cannot be hashed. They are sealed
 * with AES-256-GCM under a key ring of their own (SECRETS_ENCRYPTION_KEYS): the first key seals, each
 * key opens what it sealed (the key id travels with the value), so keys rotate by putting a new one
 * first and re-sealing (`npm run secrets:reseal`) before the old one is removed. Values of the former
 * format (`v1:`, sealed under a key derived from JWT_SECRET) are opened with the current or the
 * previous JWT secret until they are re-sealed, which start-up does.
 */
export class SecretBox {
  private readonly keys: Map<string, Buffer>;
  private readonly current: SealingKey;
  private readonly legacyKeys: Buffer[];

  /** `openers`: keys that only open (never seal), e.g. the development key once a ring is configured. */
  constructor(ring: SealingKey[], legacyJwtSecrets: string[] = [], openers: SealingKey[] = []) {
    if (ring.length === 0) throw new Error('the secrets key ring needs at least one key');
    for (const entry of ring) if (entry.key.length !== 32) throw new Error(`key ${entry.id} is not 32 bytes`);
    this.keys = new Map([...openers, ...ring].map((entry) => [entry.id, entry.key]));
    this.current = ring[0]!;
    this.legacyKeys = legacyJwtSecrets.map(deriveFromJwtSecret);
  }

  /**
   * The ring of a process: SECRETS_ENCRYPTION_KEYS, or (outside production) one key derived from JWT_SECRET.
   * Outside production the derived key also opens once a ring is set, so a development database keeps its
   * secrets when SECRETS_ENCRYPTION_KEYS is added.
   */
  static fromConfig(config: Pick<Config, 'nodeEnv' | 'jwt' | 'secretsEncryptionKeys'>): SecretBox {
    const legacy = [config.jwt.secret, ...(config.jwt.previousSecret ? [config.jwt.previousSecret] : [])];
    const derived = {
      id: DERIVED_KEY_ID,
      key: Buffer.from(hkdfSync('sha256', config.jwt.secret, 'wms-secrets-ring', 'development-only', 32)),
    };
    if (!config.secretsEncryptionKeys) return new SecretBox([derived], legacy);
    return new SecretBox(config.secretsEncryptionKeys, legacy, config.nodeEnv === 'production' ? [] : [derived]);
  }

  get currentKeyId(): string {
    return this.current.id;
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.current.key, iv);
    const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${VERSION}:${this.current.id}:${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64')}`;
  }

  /** Throws when the value's key is not in the ring, or the value was altered. */
  open(sealed: string): string {
    const parts = sealed.split(':');
    if (parts[0] === LEGACY_VERSION && parts.length === 2) return this.openLegacy(parts[1]!);
    if (parts[0] !== VERSION || parts.length !== 3) throw new Error('unknown sealed secret format');
    const key = this.keys.get(parts[1]!);
    if (!key) throw new Error(`sealing key ${parts[1]} is not in SECRETS_ENCRYPTION_KEYS`);
    return openWith(key, parts[2]!);
  }

  /** True when the value is sealed under the current key (nothing to re-seal). */
  isCurrent(sealed: string): boolean {
    return sealed.startsWith(`${VERSION}:${this.current.id}:`);
  }

  private openLegacy(payload: string): string {
    for (const key of this.legacyKeys) {
      try {
        return openWith(key, payload);
      } catch {
        // the next candidate (JWT_SECRET_PREVIOUS) may have sealed it
      }
    }
    throw new Error('legacy sealed secret opens with neither JWT_SECRET nor JWT_SECRET_PREVIOUS');
  }
}

function openWith(key: Buffer, payload: string): string {
  const bytes = Buffer.from(payload, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, 12));
  decipher.setAuthTag(bytes.subarray(12, 28));
  return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
}

/** The former format, for tests and tools that must produce a value sealed before the key ring existed. */
export function sealLegacy(jwtSecret: string, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', deriveFromJwtSecret(jwtSecret), iv);
  const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return `${LEGACY_VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64')}`;
}
