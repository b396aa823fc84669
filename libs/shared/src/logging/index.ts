export { createLogger, redactedPaths, explicitLineLogger, unredactedChild, type Logger } from './logger.js';
