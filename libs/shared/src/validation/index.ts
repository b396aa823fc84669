export { validate, toErrorDetails } from './validate.js';
export { compileEntryCheck, ENTRY_PREFERENCES, type EntryCheck } from './entry-check.js';
