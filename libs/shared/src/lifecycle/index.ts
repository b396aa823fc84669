export { installShutdown } from './shutdown.js';
