export { AppError, isAppError, type ErrorCodeOf, type ErrorDetail } from './app-error.js';
export {
  ERROR_CATALOGUE,
  ERROR_CODES,
  errorCodesMarkdown,
  httpStatusOf,
  isErrorCode,
  type ErrorCode,
  type ErrorEntry,
} from './error-codes.js';
export { reasonPhrase } from './http-status.js';
