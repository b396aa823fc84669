export { validate, compileValidator, toErrorDetails, VALIDATION_PREFERENCES } from './validate.js';
export { Joi, isStorableText } from './joi.js';
export { exceedsJsonDepth, MAX_JSON_DEPTH } from './json-depth.js';
export { isUuid } from './uuid.js';
export { compileCanonicalCheck, canonicalJsonSchema, type CanonicalCheck } from './canonical.js';
export { INSTANT_MAX, INSTANT_MIN, isCursorTime, isoInstant, isoInstantDate } from './instant.js';
