export { installShutdown } from './shutdown.js';
export { AppLifecycle, settleWithin } from './app-lifecycle.js';
