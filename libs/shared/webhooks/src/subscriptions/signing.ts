import { createHmac, createSecretKey, randomBytes, timingSafeEqual, type KeyObject } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';

/** A new subscription secret: `whsec_` + base64 of 32 random bytes (Standard Webhooks). */
export function generateWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

/**
 * The HMAC key of a secret: the base64-decoded part after `whsec_`. A sender that signs often keeps it:
 * an HMAC over a KeyObject costs a sixth of one over the key's bytes, which Node turns into a KeyObject
 * on every call (docs/adr/0037-standard-webhooks-body-and-signature.md).
 */
export function webhookSigningKey(secret: string): KeyObject {
  if (!secret.startsWith(SECRET_PREFIX)) throw new Error('webhook secret must start with whsec_');
  return createSecretKey(Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64'));
}

/**
 * `v1,` + base64(HMAC-SHA256(key, `${id}.${timestamp}.${body}`)), key = base64-decoded secret after `whsec_`;
 * given a secret or the key `webhookSigningKey` made of it.
 */
export function signWebhook(secret: string | KeyObject, id: string, timestamp: number, body: string): string {
  const key = typeof secret === 'string' ? webhookSigningKey(secret) : secret;
  const mac = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/**
 * The three Standard Webhooks headers of one attempt. With several secrets or their keys (the current one
 * first, then one still in its rotation grace period) the signature header carries one signature per secret,
 * space separated, so a receiver holding either secret verifies the message.
 */
export function webhookHeaders(
  secrets: string | KeyObject | Array<string | KeyObject>,
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

/** How far a message's timestamp may be from the receiver's clock, either way (Standard Webhooks). */
export const WEBHOOK_TIMESTAMP_TOLERANCE_SECONDS = 5 * 60;

export interface VerifyOptions {
  /** The receiver's clock in unix seconds; defaults to now. */
  now?: number;
  toleranceSeconds?: number;
}

/**
 * What a receiver does: true when the timestamp is within the tolerance of its clock (5 minutes, both
 * directions, so a captured message cannot be replayed later) and one of the space-separated `v1,`
 * signatures matches. Used by the tests' receiver and offered to integrators as the reference.
 */
export function verifyWebhookSignature(
  secret: string,
  id: string,
  timestamp: number,
  body: string,
  header: string,
  options: VerifyOptions = {},
): boolean {
  const now = options.now ?? Math.floor(Date.now() / 1000);
  const tolerance = options.toleranceSeconds ?? WEBHOOK_TIMESTAMP_TOLERANCE_SECONDS;
  if (!Number.isFinite(timestamp) || Math.abs(now - timestamp) > tolerance) return false;
  const expected = Buffer.from(signWebhook(secret, id, timestamp, body));
  return header.split(' ').some((candidate) => {
    const given = Buffer.from(candidate);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
