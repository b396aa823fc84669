import { Joi } from '../validation/index.js';
import { bulkFieldOf, type IngestHandler } from './ingest-handler.js';

const tenantId = Joi.string()
  .guid()
  .description('the tenant, for a cross-tenant API key; a bound key may name only its own');

/**
 * The envelope of a bulk body (`{ <entity>: [ … ], tenantId? }`): an object, the array present, not
 * empty and within the limit. Entries are not checked here: a bad entry is an entry error of a 207.
 */
export function bulkBodySchema(handler: IngestHandler, entries?: Joi.Schema): Joi.ObjectSchema {
  // Without an entry schema the array's items are not visited at all (the worker checks each entry).
  const array = entries ? Joi.array().items(entries) : Joi.array();
  return Joi.object({
    [bulkFieldOf(handler)]: array.min(1).max(handler.maxEntries).required(),
    tenantId,
  }).label(`${handler.title}Bulk`);
}

/** A single write's body: the entry itself, plus `tenantId` for a cross-tenant key. */
export function singleBodySchema(handler: IngestHandler): Joi.ObjectSchema {
  // required: a POST without a body is a 400, not an undefined entry.
  return handler.entrySchema.keys({ tenantId }).required();
}
