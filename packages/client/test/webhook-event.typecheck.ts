// Compiled by the typecheck (tsconfig.spec.json, strict), never run: narrowing an unwrapped webhook on its
// `event` field must type its data, and a field of another event must not type-check.
import { createClient, type WebhookEvent } from '../src/index.js';

const client = createClient({ baseUrl: 'https://wms.example.com', apiKey: 'key' });

export function quantityOf(rawBody: string, headers: Record<string, string>, secret: string): number {
  const e = client.webhooks.unwrap(rawBody, headers, secret);
  if (e.event === 'stock.adjusted') {
    // Quantities are exact decimal strings in the version the client's types follow.
    const delta: string = e.data.qtyDelta;
    const onHand: string = e.data.qtyOnHand;
    return Number(delta) + Number(onHand);
  }
  if (e.event === 'order.shipped') {
    const shipment: string = e.data.shipmentNo;
    // @ts-expect-error: an order.shipped event has no qtyDelta
    void e.data.qtyDelta;
    return shipment.length;
  }
  // @ts-expect-error: before narrowing, data is any event's and qtyDelta is not in all of them
  void e.data.qtyDelta;
  return 0;
}

/** Every event name of the document is a case of the union; a name it does not have is refused. */
export function isKnown(event: WebhookEvent['event']): boolean {
  // @ts-expect-error: not an event the service sends
  const unknown: WebhookEvent['event'] = 'stock.teleported';
  return event !== unknown;
}
