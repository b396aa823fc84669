export {
  createLogger,
  redactedPaths,
  serializeError,
  explicitLineLogger,
  unredactedChild,
  type Logger,
} from './logger.js';
