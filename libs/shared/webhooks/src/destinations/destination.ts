import { AppError, Joi } from '@wms/platform';
import { DEFAULT_ADDRESS_TEMPLATE, TEMPLATE_VARIABLES, unknownTemplateVariables } from './address-template.js';

/** What a subscription's answer shows of its destination: never a password or a credential. */
export type DestinationView =
  | { kind: 'http'; url: string }
  | { kind: 'rabbitmq'; url: string; exchange: string; routingKey: string }
  | { kind: 'nats'; url: string; stream: string; subject: string; hasCredentials: boolean };

/** The broker settings stored in the clear (`webhook_subscriptions.destination`). */
export type BrokerSettings =
  { exchange: string; routingKey: string } | { stream: string; subject: string; hasCredentials: boolean };

/** NATS credentials: a user and password, a token, or the contents of a `.creds` file. */
export interface NatsCredentials {
  user?: string;
  pass?: string;
  token?: string;
  creds?: string;
}

/** What is sealed: the broker's URL as given (its password included) and any NATS credentials. */
export interface SealedDestination {
  url: string;
  credentials?: NatsCredentials;
}

/** A destination as a request gives it, validated. */
export type DestinationInput =
  | { kind: 'http'; url: string }
  | { kind: 'rabbitmq'; url: string; exchange: string; routingKey?: string }
  | { kind: 'nats'; url: string; stream: string; subject?: string; credentials?: NatsCredentials };

const templateOf = (what: string) =>
  Joi.string()
    .trim()
    .max(255)
    .pattern(/^[A-Za-z0-9_.{}-]+$/)
    .custom((value: string, helpers) => {
      const unknown = unknownTemplateVariables(value);
      return unknown.length > 0 ? helpers.error('template.variable', { unknown: unknown.join(', ') }) : value;
    })
    .messages({
      'string.pattern.base': `{{#label}} may hold letters, digits, . _ - and {variables} only`,
      'template.variable': `{{#label}} names {#unknown}; a ${what} may name ${Object.keys(TEMPLATE_VARIABLES)
        .map((name) => `{${name}}`)
        .join(', ')}`,
    })
    .description(`${what} template, default ${DEFAULT_ADDRESS_TEMPLATE}`);

const brokerUrl = (schemes: string[]) =>
  Joi.string()
    .trim()
    .max(2048)
    .uri({ scheme: schemes })
    .required()
    .messages({ 'string.uriCustomScheme': `{{#label}} must be a ${schemes.join(' or ')} URL` });

const httpDestination = Joi.object({
  kind: Joi.valid('http').required(),
  url: Joi.string().trim().max(2048).required(),
}).label('HttpDestination');

const rabbitMqDestination = Joi.object({
  kind: Joi.valid('rabbitmq').required(),
  url: brokerUrl(['amqp', 'amqps']).description('the AMQP URL with user, password and vhost'),
  exchange: Joi.string().trim().min(1).max(255).required().description('an existing exchange'),
  routingKey: templateOf('routing key'),
}).label('RabbitMqDestination');

const natsDestination = Joi.object({
  kind: Joi.valid('nats').required(),
  url: brokerUrl(['nats', 'tls']).description('the NATS server URL'),
  stream: Joi.string()
    .trim()
    .max(255)
    .pattern(/^[A-Za-z0-9_-]+$/)
    .required()
    .description('an existing JetStream stream taking the subjects'),
  subject: templateOf('subject'),
  credentials: Joi.object({
    user: Joi.string().max(255),
    pass: Joi.string().max(1024),
    token: Joi.string().max(4096),
    creds: Joi.string().max(16_384).description("a .creds file's text"),
  })
    .oxor('user', 'token', 'creds')
    .and('user', 'pass')
    .label('NatsCredentials'),
}).label('NatsDestination');

/** A subscription's `destination` in a create or update request: its kind decides its fields. */
export const destinationSchema = Joi.alternatives()
  .conditional('.kind', {
    switch: [
      { is: 'http', then: httpDestination },
      { is: 'rabbitmq', then: rabbitMqDestination },
      { is: 'nats', then: natsDestination },
    ],
    otherwise: Joi.object({ kind: Joi.valid('http', 'rabbitmq', 'nats').required() }).unknown(),
  })
  .label('Destination');

/** The URL with its password masked: what answers, the audit log and log lines show. */
export function maskedUrl(raw: string): string {
  try {
    const url = new URL(raw);
    if (url.password) url.password = '****';
    return url.toString();
  } catch {
    return raw.replace(/\/\/([^:/@]*):[^@/]*@/, '//$1:****@');
  }
}

/** How a validated destination is stored: the displayed url, the settings in the clear, the sealed part. */
export function storedDestination(input: DestinationInput): {
  kind: DestinationInput['kind'];
  url: string;
  settings: BrokerSettings | null;
  sealed: SealedDestination | null;
} {
  switch (input.kind) {
    case 'http':
      return { kind: 'http', url: input.url, settings: null, sealed: null };
    case 'rabbitmq':
      return {
        kind: 'rabbitmq',
        url: maskedUrl(input.url),
        settings: { exchange: input.exchange, routingKey: input.routingKey ?? DEFAULT_ADDRESS_TEMPLATE },
        sealed: { url: input.url },
      };
    case 'nats':
      return {
        kind: 'nats',
        url: maskedUrl(input.url),
        settings: {
          stream: input.stream,
          subject: input.subject ?? DEFAULT_ADDRESS_TEMPLATE,
          hasCredentials: input.credentials !== undefined || new URL(input.url).username !== '',
        },
        sealed: { url: input.url, ...(input.credentials && { credentials: input.credentials }) },
      };
  }
}

/** The address a broker URL's host is checked at, as a webhook host is (private addresses refused unless allowed). */
export function brokerHostUrl(raw: string): string {
  let host = '';
  try {
    host = new URL(raw).host;
  } catch {
    // refused below, as a URL without a host
  }
  if (!host) {
    throw AppError.validation('Validation failed', [{ path: 'destination.url', message: 'must be a URL with a host' }]);
  }
  return `https://${host}/`;
}

export function assertHttpUrlOnly(kind: string): void {
  if (kind !== 'http') {
    throw AppError.validation('Validation failed', [
      { path: 'url', message: 'a broker subscription changes its address with destination' },
    ]);
  }
}
