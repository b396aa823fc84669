export { AppError, isAppError, type ErrorDetail } from './app-error.js';
export { reasonPhrase } from './http-status.js';
