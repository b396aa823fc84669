export { SlidingWindowLimiter, type RateLimitDecision, type SlidingWindowOptions } from './sliding-window.js';
export { AttemptThrottle, type AttemptThrottleOptions } from './attempt-throttle.js';
