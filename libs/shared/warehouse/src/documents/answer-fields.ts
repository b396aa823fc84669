import { Joi } from '@wms/platform';

/**
 * The building blocks of the answers' declarations (orders, ASNs, GRNs, returns, stock): the OpenAPI documents
 * are generated from these, and a spec validates every real answer against them, so they state exactly what an
 * answer carries. Quantities are declared as numbers, the shape the code speaks; each dated version's document
 * rewrites them as that version sends them (platform/versions/openapi.ts).
 */

/** An object whose every key is present (a value may still be null where it allows), and nothing else. */
export function answerObject(keys: Record<string, Joi.Schema>): Joi.ObjectSchema {
  return Joi.object(Object.fromEntries(Object.entries(keys).map(([name, schema]) => [name, schema.required()])));
}

export const answerQty = (description?: string) => (description ? Joi.number().description(description) : Joi.number());

/** A time as the answers write it: ISO 8601 UTC with milliseconds. */
export const answerTime = () => Joi.string().isoDate();

/** A calendar date `YYYY-MM-DD`. */
export const answerDate = () => Joi.string().pattern(/^\d{4}-\d{2}-\d{2}$/);

export const answerId = () => Joi.string().guid();

export const nullable = (schema: Joi.Schema) => schema.allow(null);
