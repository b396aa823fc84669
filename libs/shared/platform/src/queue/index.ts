export { defaultJobOptions, type QueueSettings } from './queues.js';

export { closeWithin } from './close.js';
