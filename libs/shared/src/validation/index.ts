export { validate, toErrorDetails } from './validate.js';
