export { installShutdown } from './shutdown.js';
export { AppLifecycle } from './app-lifecycle.js';
export { TimeoutError, settleWithin, within } from './within.js';
export { PollLoop, type PollLoopOptions } from './poll-loop.js';
