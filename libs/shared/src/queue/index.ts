export { defaultJobOptions, type QueueSettings } from './queues.js';
