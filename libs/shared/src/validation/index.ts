export { validate, compileValidator, toErrorDetails } from './validate.js';
export { compileEntryCheck, ENTRY_PREFERENCES, type EntryCheck, type EntryCheckOptions } from './entry-check.js';
export { Joi, isStorableText } from './joi.js';
export { exceedsJsonDepth, MAX_JSON_DEPTH } from './json-depth.js';
export { isUuid } from './uuid.js';
