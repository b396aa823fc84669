export { validate, toErrorDetails } from './validate.js';
export { compileFastCheck, ENTRY_PREFERENCES, type FastCheck } from './fast-check.js';
