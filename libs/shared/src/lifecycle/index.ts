export { installShutdown } from './shutdown.js';
export { AppLifecycle } from './app-lifecycle.js';
