import { eventCatalogue, subscribableEventNames, type EventName } from '@wms/events';
import { joiToJsonSchema, type JsonSchema } from '@wms/platform';

/** One entry of GET /api/v1/webhooks/event-types. */
export interface EventTypeDescription {
  name: EventName;
  description: string;
  /** Whether a subscription may name it in `events`. */
  subscribable: boolean;
  /** Whether `*` in a subscription's events includes it. */
  includedInWildcard: boolean;
  /** The document whose events `sequence` counts (it grows by one with each event of that document). */
  sequenceOf: string;
  /** JSON Schema (2020-12) of the event's `data`. */
  dataSchema: JsonSchema;
  /** JSON Schema of the whole body a subscriber receives (and the events feed lists): `data` inside its envelope. */
  bodySchema: JsonSchema;
}

const SEQUENCE_OF: Record<EventName, string> = {
  'asn.received': 'the ASN (asnNo)',
  'asn.completed': 'the ASN (asnNo)',
  'order.allocated': 'the sales order (orderNo)',
  'order.released': 'the sales order (orderNo)',
  'order.shipped': 'the sales order (orderNo)',
  'order.cancelled': 'the sales order (orderNo)',
  'stock.adjusted': 'the stock position (warehouseCode, locationCode, sku, lotNo), shared with cyclecount.variance',
  'cyclecount.variance': 'the stock position (warehouseCode, locationCode, sku, lotNo), shared with stock.adjusted',
  'return.received': 'the return (rmaNo)',
  'return.completed': 'the return (rmaNo)',
  'import.completed': 'the import (importId)',
  'bulk.completed': 'the bulk job (jobId)',
  'webhook.test': 'the subscription (subscriptionId)',
  'webhook.disabled': 'the disabled subscription (subscriptionId)',
};

const subscribable = new Set<string>(subscribableEventNames);

/** Every event the service sends, generated from the definitions the outbox checks events against. */
export function eventTypeCatalogue(): EventTypeDescription[] {
  return (Object.keys(eventCatalogue) as EventName[]).map((name) => {
    const dataSchema = joiToJsonSchema(eventCatalogue[name].data);
    return {
      name,
      description: eventCatalogue[name].description,
      subscribable: subscribable.has(name),
      includedInWildcard: subscribable.has(name) && name !== 'webhook.disabled',
      sequenceOf: SEQUENCE_OF[name],
      dataSchema,
      bodySchema: bodySchemaOf(name, SEQUENCE_OF[name], dataSchema),
    };
  });
}

/** The body of one event as it is sent: `{ id, event, timestamp, sequence, sandbox?, data }`. */
function bodySchemaOf(name: EventName, sequenceOf: string, dataSchema: JsonSchema): JsonSchema {
  return {
    type: 'object',
    required: ['id', 'event', 'timestamp', 'sequence', 'data'],
    properties: {
      id: { type: 'string', format: 'uuid', description: 'event id, equal to webhook-id' },
      event: { const: name },
      timestamp: { type: 'string', format: 'date-time', description: 'when the event occurred' },
      sequence: {
        type: ['integer', 'null'],
        description:
          `grows by one with each event of ${sequenceOf}: an event whose sequence is not above ` +
          'the last one applied for that document is stale and can be dropped (null only for events ' +
          'written before sequences existed). A subscription with `ordered: true` receives one ' +
          'document’s events one at a time, in this order.',
      },
      sandbox: {
        const: true,
        description:
          'present (true) only on events of a sandbox tenant, whose operations may be simulations; ' +
          'absent on every other event',
      },
      data: dataSchema,
    },
  };
}

/** The Standard Webhooks headers of every delivery, as HTTP headers or as a broker message's headers. */
export const signatureHeaders = [
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description: 'the event id; the same on every retry, redelivery and replay (use it to drop duplicates)',
    schema: { type: 'string', format: 'uuid' },
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description: 'unix seconds of this attempt; refuse messages far from your clock',
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      'space-separated `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">`; two signatures ' +
      'during a secret rotation’s grace period (the new secret first): accept the message when one verifies',
    schema: { type: 'string' },
  },
];

/**
 * OpenAPI 3.1's top-level `webhooks`: one POST per event, as the service sends it (Standard Webhooks
 * headers, body `{ id, event, timestamp, sequence, sandbox?, data }`). Any 2xx counts as delivered; 410 disables the subscription.
 */
export function webhooksOpenApi(): Record<string, unknown> {
  return Object.fromEntries(
    eventTypeCatalogue().map((type) => [
      type.name,
      {
        post: {
          summary: type.name,
          description: type.description,
          tags: ['webhooks'],
          parameters: signatureHeaders,
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: type.bodySchema,
              },
            },
          },
          responses: {
            '2XX': { description: 'received; any 2xx status counts as delivered' },
            '410': { description: 'gone: the subscription is disabled and not retried' },
            default: { description: 'anything else is retried with exponential backoff' },
          },
        },
      },
    ]),
  );
}
