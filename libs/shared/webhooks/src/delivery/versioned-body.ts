import { renderForVersion } from '@wms/platform';

/** What a webhook body says of its event; `data` as stored (quantities as exact decimal strings). */
export interface WebhookBodyParts {
  id: string;
  event: string;
  timestamp: string;
  sequence: number | null;
  sandbox: boolean;
  data: Record<string, unknown>;
}

/**
 * The body a subscription receives, rendered in its dated API version: the bytes returned are the bytes
 * signed and sent.
 */
export function versionedWebhookBody(parts: WebhookBodyParts, apiVersion: string): string {
  return JSON.stringify({
    id: parts.id,
    event: parts.event,
    timestamp: parts.timestamp,
    sequence: parts.sequence,
    ...(parts.sandbox && { sandbox: true }),
    data: renderForVersion(parts.data, apiVersion),
  });
}
