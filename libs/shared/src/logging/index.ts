export { createLogger, redactedPaths, type Logger } from './logger.js';
