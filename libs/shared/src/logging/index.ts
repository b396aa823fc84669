export { createLogger, redactedPaths, unredactedChild, type Logger } from './logger.js';
