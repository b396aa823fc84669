import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';

/**
 * Subscription secrets must be readable for HMAC signing, so they cannot be hashed. They are sealed
 * with AES-256-GCM under a key derived (HKDF-SHA256) from JWT_SECRET: a copy of the database alone
 * does not reveal them. Changing JWT_SECRET makes existing secrets unreadable (deliveries then fail
 * with a clear error until the subscription is re-created); see docs/decisions.md.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(masterSecret: string) {
    this.key = Buffer.from(hkdfSync('sha256', masterSecret, 'wms-webhook-secrets', 'subscription-secret-v1', 32));
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64')}`;
  }

  /** Throws when the value was sealed under another key or altered. */
  open(sealed: string): string {
    const [version, payload] = sealed.split(':');
    if (version !== VERSION || !payload) throw new Error('unknown sealed secret format');
    const bytes = Buffer.from(payload, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(12, 28));
    return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
  }
}
