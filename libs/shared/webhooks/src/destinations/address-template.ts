import type { EventName } from '@wms/events';

/** The kinds of destination a subscription delivers to. */
export const DESTINATION_KINDS = ['http', 'rabbitmq', 'nats'] as const;
export type DestinationKind = (typeof DESTINATION_KINDS)[number];

/** The routing key (RabbitMQ) or subject (NATS) a broker subscription gets when it names none. */
export const DEFAULT_ADDRESS_TEMPLATE = 'wms.{event}.{documentKey}';

/** What a routing-key or subject template may name, with what each stands for. */
export const TEMPLATE_VARIABLES = {
  event:
    'the event type, e.g. order.shipped (its dots split it into words a topic binding or subject filter can match)',
  documentKey:
    'the document the event is about: orderNo, asnNo, rmaNo, importId, jobId or subscriptionId; ' +
    'warehouseCode-locationCode-sku for stock events. Characters other than letters, digits, - and _ become _',
  tenantId: 'the tenant of the event (none for a cross-tenant subscription’s webhook.disabled)',
} as const;

export type TemplateVariable = keyof typeof TEMPLATE_VARIABLES;

const VARIABLE = /\{([A-Za-z]+)\}/g;

/** The variables a template names that are not known, for the 400 that refuses it. */
export function unknownTemplateVariables(template: string): string[] {
  return [...template.matchAll(VARIABLE)].map((match) => match[1]!).filter((name) => !(name in TEMPLATE_VARIABLES));
}

/** One word of a routing key or subject: what a broker would read as a separator or a wildcard is replaced. */
const word = (value: unknown): string => String(value ?? 'none').replace(/[^A-Za-z0-9_-]/g, '_') || '_';

function documentKeyWord(event: EventName, data: Record<string, unknown>): string {
  if (event === 'stock.adjusted' || event === 'cyclecount.variance') {
    return word([data.warehouseCode, data.locationCode, data.sku].join('-'));
  }
  // A return's events name its order too: the return's own number comes first.
  const key = ['rmaNo', 'asnNo', 'orderNo', 'importId', 'jobId', 'subscriptionId'].find((name) => name in data);
  return word(key === undefined ? undefined : data[key]);
}

/** The routing key or subject of one event: the template with its variables filled in. */
export function renderAddress(template: string, event: EventName, data: Record<string, unknown>): string {
  const values: Record<TemplateVariable, () => string> = {
    event: () => event.split('.').map(word).join('.'),
    documentKey: () => documentKeyWord(event, data),
    tenantId: () => word(data.tenantId),
  };
  return template.replace(VARIABLE, (whole, name: string) =>
    name in values ? values[name as TemplateVariable]() : whole,
  );
}
