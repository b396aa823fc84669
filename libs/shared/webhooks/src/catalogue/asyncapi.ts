import { API_VERSIONS, VERSION_HEADER, sentSchemaForVersion, type ApiVersion, type JsonSchema } from '@wms/platform';
import { DEFAULT_ADDRESS_TEMPLATE, TEMPLATE_VARIABLES } from '../destinations/index.js';
import { eventTypeCatalogue, signatureHeaders, type EventTypeDescription } from './event-types.js';

type Node = Record<string, unknown>;

export const ASYNCAPI_PATH = '/api/v1/integration/v1/asyncapi.json';

/** The message headers of every delivery (HTTP headers, AMQP headers, NATS headers): the Standard Webhooks three. */
function headersSchema(): JsonSchema {
  return {
    type: 'object',
    required: signatureHeaders.map(({ name }) => name),
    properties: Object.fromEntries(
      signatureHeaders.map(({ name, description, schema }) => [name, { ...schema, description }]),
    ),
  };
}

function messages(types: EventTypeDescription[], version: ApiVersion): Node {
  return Object.fromEntries(
    types.map((type) => [
      type.name,
      {
        name: type.name,
        title: type.name,
        summary: type.description,
        contentType: 'application/json',
        headers: headersSchema(),
        payload: sentSchemaForVersion(type.bodySchema, version),
        correlationId: {
          description: 'the event id, equal to webhook-id and the body’s id: drop a message whose id was applied',
          location: '$message.header#/webhook-id',
        },
      },
    ]),
  );
}

// A channel declares the parameters its address names; the default template names event and documentKey.
const templateParameters = {
  event: { description: TEMPLATE_VARIABLES.event },
  documentKey: { description: TEMPLATE_VARIABLES.documentKey },
};
const templateNote = ` A template may also name {tenantId}: ${TEMPLATE_VARIABLES.tenantId}.`;

/** The channels of each destination kind, every one carrying every event. */
function channels(types: EventTypeDescription[]): Node {
  const refs = Object.fromEntries(types.map(({ name }) => [name, { $ref: `#/components/messages/${name}` }]));
  return {
    http: {
      address: null,
      title: 'HTTP webhook',
      description:
        'A POST to the subscription’s url. Any 2xx is delivered; 410 disables the subscription; anything else is ' +
        'retried with exponential backoff up to WEBHOOK_MAX_ATTEMPTS.',
      servers: [{ $ref: '#/servers/http' }],
      messages: refs,
      bindings: { http: { bindingVersion: '0.3.0' } },
    },
    rabbitmq: {
      address: DEFAULT_ADDRESS_TEMPLATE,
      title: 'RabbitMQ exchange',
      description:
        'Published to the subscription’s exchange with the routing key of its template (this address is the ' +
        'default one), persistent, with publisher confirms; the AMQP messageId is webhook-id. Bind a queue to ' +
        'the exchange to read them.' +
        templateNote,
      parameters: templateParameters,
      servers: [{ $ref: '#/servers/rabbitmq' }],
      messages: refs,
      bindings: {
        amqp: {
          is: 'routingKey',
          exchange: {
            name: 'the subscription’s exchange',
            type: 'topic',
            durable: true,
            autoDelete: false,
            vhost: '/',
          },
          bindingVersion: '0.3.0',
        },
      },
    },
    nats: {
      address: DEFAULT_ADDRESS_TEMPLATE,
      title: 'NATS JetStream subject',
      description:
        'Published to the subscription’s subject (this address is the default template) in its JetStream stream, ' +
        'each publish awaiting the stream’s acknowledgement; Nats-Msg-Id is webhook-id, so JetStream drops a ' +
        'retry inside its duplicate window.' +
        templateNote,
      parameters: templateParameters,
      servers: [{ $ref: '#/servers/nats' }],
      messages: refs,
    },
  };
}

function operations(types: EventTypeDescription[]): Node {
  const kinds = { http: 'to an HTTP endpoint', rabbitmq: 'to a RabbitMQ exchange', nats: 'to a JetStream stream' };
  return Object.fromEntries(
    Object.entries(kinds).map(([kind, where]) => [
      `deliver-${kind}`,
      {
        action: 'send',
        title: `Deliver ${where}`,
        summary:
          'The service sends each event of the subscription’s filter, signed; one document’s events in order ' +
          'when the subscription is ordered, at most maxDeliveriesPerSecond.',
        channel: { $ref: `#/channels/${kind}` },
        messages: types.map(({ name }) => ({ $ref: `#/channels/${kind}/messages/${name}` })),
      },
    ]),
  );
}

const servers = {
  http: {
    host: '{host}',
    protocol: 'https',
    description: 'the subscriber’s endpoint (the subscription’s url)',
    variables: { host: { description: 'host of the subscription’s url', default: 'example.com' } },
  },
  rabbitmq: {
    host: '{host}',
    protocol: 'amqp',
    description: 'the subscriber’s RabbitMQ (the subscription’s AMQP URL)',
    variables: { host: { description: 'host and port of the AMQP URL', default: 'localhost:5672' } },
  },
  nats: {
    host: '{host}',
    protocol: 'nats',
    description: 'the subscriber’s NATS server with JetStream (the subscription’s server URL)',
    variables: { host: { description: 'host and port of the NATS server', default: 'localhost:4222' } },
  },
};

/**
 * The AsyncAPI 3.0 document of the events as `version` sends them, generated from the event catalogue the
 * outbox checks events against: one message per event (payload and signature headers), the channels of each
 * destination kind and one send operation per kind.
 */
export function asyncApiDocument(version: ApiVersion): Node {
  const types = eventTypeCatalogue();
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'WMS integration events',
      version,
      description:
        `The events the service delivers to a subscription, in the dated version ${version} ` +
        `(a subscription's apiVersion; read \`?version=\` of this document for another). Every message is signed ` +
        'per Standard Webhooks: verify webhook-signature over "{webhook-id}.{webhook-timestamp}.{body}" with the ' +
        `subscription's secret. The same types with their schemas: GET /api/v1/integration/v1/event-types. ` +
        `Versions: ${API_VERSIONS.join(', ')}; \`${VERSION_HEADER}\` chooses one for API answers.`,
    },
    defaultContentType: 'application/json',
    servers,
    channels: channels(types),
    operations: operations(types),
    components: { messages: messages(types, version) },
  };
}
