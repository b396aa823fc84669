export { installShutdown } from './shutdown.js';
export { AppLifecycle, settleWithin } from './app-lifecycle.js';
export { PollLoop, type PollLoopOptions } from './poll-loop.js';
