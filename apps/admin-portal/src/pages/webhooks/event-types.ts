import { webhooksApi, type EventType } from '../../api';

/** The events a subscription may ask for, with what each means, as the gateway's catalogue lists them. */
export async function loadEventTypes(): Promise<EventType[]> {
  return (await webhooksApi.eventTypes()).filter((type) => type.subscribable);
}
