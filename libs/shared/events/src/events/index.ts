export * from './event-types.js';
export { EventsService, FEED_MAX_LIMIT } from './events.service.js';
export { EventsRepository, EVENTS_CHANNEL } from './events.repository.js';
export { eventCatalogue, assertEventData, type EventDefinition, type EventModule } from './event-catalogue.js';
export { documentKeyOf } from './document-key.js';
export { feedEventSchema } from './feed-event.schema.js';
