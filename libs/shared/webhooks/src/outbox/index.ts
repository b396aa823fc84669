/**
 * The outbox: the relay that fans committed events out into deliveries and queues them, its state for the metrics,
 * and its retention.
 */
export { OutboxRelay, type RelayOptions, type RelayPass } from './outbox-relay.js';
export { DeliveryEnqueuer, deliveryJobsOf, type RecheckPass } from './delivery-enqueuer.js';
export { readOutboxStats } from './outbox-stats.js';
export { outboxGauges, type OutboxStats } from './outbox-gauges.js';
export { DeliveredEventsRepository } from './delivered-events.repository.js';
