/** The catalogue of event types as integrators read it: the webhooks' OpenAPI part and the AsyncAPI document. */
export { eventTypeCatalogue, webhooksOpenApi, type EventTypeDescription } from './event-types.js';
export { asyncApiDocument, ASYNCAPI_PATH } from './asyncapi.js';
