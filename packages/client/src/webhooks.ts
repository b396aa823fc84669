import { Webhook, WebhookVerificationError as LibraryVerificationError } from 'standardwebhooks';
import { WebhookVerificationError } from './errors.js';
import type { WebhookEvent } from './types.js';

/** The headers of a received request: Node's (Express's req.headers) or the Fetch API's. */
export type ReceivedHeaders = Headers | Record<string, string | string[] | undefined>;

const SIGNATURE_HEADERS = ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const;

function signatureHeadersOf(headers: ReceivedHeaders): Record<string, string> {
  const read = (name: string): string | undefined => {
    if (headers instanceof Headers) return headers.get(name) ?? undefined;
    const value = Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
    return Array.isArray(value) ? value.join(' ') : value;
  };
  const found: Record<string, string> = {};
  for (const name of SIGNATURE_HEADERS) {
    const value = read(name);
    if (value === undefined) throw new WebhookVerificationError(`missing header ${name}`);
    found[name] = value;
  }
  return found;
}

function textOf(rawBody: string | Uint8Array): string {
  return typeof rawBody === 'string' ? rawBody : new TextDecoder().decode(rawBody);
}

function isEvent(body: unknown): body is WebhookEvent {
  if (!body || typeof body !== 'object') return false;
  const { event, data } = body as Record<string, unknown>;
  return typeof event === 'string' && typeof data === 'object' && data !== null;
}

/**
 * Verifies a delivery's Standard Webhooks signature over the raw body with each secret given (a rotation's
 * old and new ones; the service may sign with both, and one matching signature is enough), refuses a
 * timestamp more than 5 minutes from this clock, and answers the event typed by its `event` field.
 */
export function unwrapWebhook(
  rawBody: string | Uint8Array,
  headers: ReceivedHeaders,
  secret: string | readonly string[],
): WebhookEvent {
  const secrets = typeof secret === 'string' ? [secret] : secret;
  if (secrets.length === 0) throw new WebhookVerificationError('no secret to verify with');
  const signed = signatureHeadersOf(headers);
  const payload = textOf(rawBody);
  let refusal = 'no matching signature';
  for (const candidate of secrets) {
    let body: unknown;
    try {
      body = new Webhook(candidate).verify(payload, signed);
    } catch (error) {
      if (!(error instanceof LibraryVerificationError)) throw error;
      refusal = error.message;
      continue;
    }
    if (!isEvent(body)) throw new WebhookVerificationError('the signed body is not an event');
    return body;
  }
  throw new WebhookVerificationError(refusal);
}
