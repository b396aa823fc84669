import { forwardedTraceHeaders, inStoredTrace, tracingStarted } from '@wms/platform';
import type { DeliveryWork } from './delivery.repository.js';

/**
 * Sends one attempt in the trace of the work that committed its event: a `webhook deliver` span whose
 * parent is the event's stored context and which links to the batch or retry job running it; the HTTP
 * client span under it is what the subscriber's `traceparent` names (the HTTP instrumentation writes the
 * header). With tracing off, the subscriber still gets a `traceparent` of the caller's trace.
 */
export function sendInEventTrace<T>(
  work: Pick<DeliveryWork, 'id' | 'eventId' | 'event' | 'subscriptionId' | 'traceId' | 'traceContext'>,
  headers: Record<string, string>,
  attemptNo: number,
  send: (headers: Record<string, string>) => Promise<T>,
): Promise<T> {
  if (!tracingStarted()) {
    const forwarded = work.traceId ? forwardedTraceHeaders(work.traceId) : undefined;
    return send(forwarded ? { ...headers, ...forwarded } : headers);
  }
  const attributes = {
    'wms.event.id': work.eventId,
    'wms.event.type': work.event,
    'wms.webhook.delivery.id': work.id,
    'wms.webhook.subscription.id': work.subscriptionId,
    'wms.webhook.attempt': attemptNo,
  };
  return inStoredTrace('webhook deliver', work.traceContext, attributes, () => send(headers));
}
