export { defaultJobOptions, type QueueSettings } from './queues.js';
export * from './webhook-delivery.contract.js';
