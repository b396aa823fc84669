import { ApiError, webhooksApi, type EventType } from '../../api';

/**
 * The business events, for a gateway that does not list its event types yet (GET /webhooks/event-types
 * answers 404): what a subscription may ask for, each in `*` (every business event).
 */
const KNOWN_EVENTS: Array<[string, string]> = [
  ['asn.received', 'Goods were received against an ASN.'],
  ['asn.completed', 'Every line of an ASN has been received in full.'],
  ['order.allocated', 'Stock was reserved for a sales order.'],
  ['order.released', 'An order was released to picking; pick tasks were made.'],
  ['order.shipped', 'An order was shipped.'],
  ['order.cancelled', 'An order was cancelled.'],
  ['stock.adjusted', 'On-hand stock was adjusted.'],
  ['cyclecount.variance', 'A cycle count found a difference from the system quantity.'],
];

export async function loadEventTypes(): Promise<EventType[]> {
  try {
    return (await webhooksApi.eventTypes()).filter((type) => type.subscribable);
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 404)) throw error;
    return KNOWN_EVENTS.map(([name, description]) => ({
      name,
      description,
      subscribable: true,
      includedInWildcard: true,
    }));
  }
}
