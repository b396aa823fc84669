import { Joi, validate } from '@wms/platform';
import { bulkFieldOf, type IngestEntityDeclaration } from './ingest-handler.js';

const tenantId = Joi.string()
  .guid()
  .description('the tenant, for a cross-tenant API key; a bound key may name only its own');

/**
 * The envelope of a bulk body (`{ <entity>: [ … ], tenantId? }`): an object, the array present, not
 * empty and within the limit. Entries are not checked here: a bad entry is an entry error of a 207.
 */
export function bulkBodySchema(handler: IngestEntityDeclaration, entries?: Joi.Schema): Joi.ObjectSchema {
  // Without an entry schema the array's items are not visited at all (the worker checks each entry).
  const array = entries ? Joi.array().items(entries) : Joi.array();
  return Joi.object({
    [bulkFieldOf(handler)]: array.min(1).max(handler.maxEntries).required(),
    tenantId,
  }).label(`${handler.title}Bulk`);
}

/** A single write's body: the entry itself, plus `tenantId` for a cross-tenant key. */
export function singleBodySchema(handler: IngestEntityDeclaration): Joi.ObjectSchema {
  // required: a POST without a body is a 400, not an undefined entry.
  return handler.entrySchema.keys({ tenantId }).required();
}

/**
 * `validate` with the bulk envelope's schema, for the bulk routes: a body that holds nothing but its array,
 * within the limit, is answered without joi's walk over up to 500 entries (it checks none of them, but it
 * visits and copies each); anything else (a tenantId to check, an error to write) goes to joi as before.
 */
export function bulkBodyValidator(
  handler: IngestEntityDeclaration,
  message: string,
): (value: unknown) => Record<string, unknown> {
  const schema = bulkBodySchema(handler);
  const field = bulkFieldOf(handler);
  return (value) => {
    const body = value as Record<string, unknown> | null;
    const entries: unknown = body?.[field];
    const plain =
      typeof body === 'object' &&
      body !== null &&
      Array.isArray(entries) &&
      entries.length >= 1 &&
      entries.length <= handler.maxEntries &&
      Object.keys(body).length === 1;
    return plain ? body : validate<Record<string, unknown>>(schema, value, message);
  };
}
