import { Joi } from '@wms/platform';
import { successSchema, type IntegrationRoute } from '@wms/ingest';

/** The event catalogue's routes of the integration API: mounted by event-types.routes.ts, documented in the OpenAPI document. */

const eventType = Joi.object({
  name: Joi.string().description('the event type, e.g. order.shipped'),
  description: Joi.string(),
  subscribable: Joi.boolean().description('whether a subscription may name it in events'),
  includedInWildcard: Joi.boolean().description('whether * in a subscription’s events includes it'),
  sequenceOf: Joi.string().description('the document whose events sequence counts'),
  dataSchema: Joi.object().unknown().description('JSON Schema of data, in the version of the request'),
  bodySchema: Joi.object()
    .unknown()
    .description('JSON Schema of the whole delivered body, in the version of the request'),
}).label('EventType');

export const EVENT_TYPE_ROUTES = {
  eventTypes: {
    method: 'get',
    path: '/event-types',
    scope: 'read',
    summary: 'The event types the service delivers, each with the JSON Schema of its data and of its body',
    description:
      'The schemas are those of the dated version of the request (Wms-Version, else the key’s); the AsyncAPI ' +
      'document at /api/v1/integration/v1/asyncapi.json?version=… carries the same messages with their channels.',
    tag: 'events',
    responses: {
      200: {
        description: 'every event type',
        body: successSchema(Joi.array().items(eventType)),
      },
    },
  },
} satisfies Record<string, IntegrationRoute>;
