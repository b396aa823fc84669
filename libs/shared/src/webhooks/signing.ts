import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';

/** A new subscription secret: `whsec_` + base64 of 32 random bytes (Standard Webhooks). */
export function generateWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

function secretKey(secret: string): Buffer {
  if (!secret.startsWith(SECRET_PREFIX)) throw new Error('webhook secret must start with whsec_');
  return Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
}

/** `v1,` + base64(HMAC-SHA256(key, `${id}.${timestamp}.${body}`)), key = base64-decoded secret after `whsec_`. */
export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  const mac = createHmac('sha256', secretKey(secret)).update(`${id}.${timestamp}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/**
 * The three Standard Webhooks headers of one attempt. With several secrets (the current one first, then
 * one still in its rotation grace period) the signature header carries one signature per secret,
 * space separated, so a receiver holding either secret verifies the message.
 */
export function webhookHeaders(
  secrets: string | string[],
  id: string,
  timestamp: number,
  body: string,
): Record<string, string> {
  const all = Array.isArray(secrets) ? secrets : [secrets];
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': all.map((secret) => signWebhook(secret, id, timestamp, body)).join(' '),
  };
}

/**
 * What a receiver does: true when one of the space-separated `v1,` signatures matches. Used by the
 * tests' receiver and offered to integrators as the reference.
 */
export function verifyWebhookSignature(
  secret: string,
  id: string,
  timestamp: number,
  body: string,
  header: string,
): boolean {
  const expected = Buffer.from(signWebhook(secret, id, timestamp, body));
  return header.split(' ').some((candidate) => {
    const given = Buffer.from(candidate);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
