export { defaultJobOptions, type QueueSettings } from './queues.js';
export {
  INGEST_QUEUE,
  createIngestQueue,
  ingestJobData,
  ingestJobSummary,
  INGEST_WORKER_LOCKS,
  ingestJobOptions,
  type IngestJobData,
  type IngestJobName,
  type IngestJobResult,
  type IngestQueue,
} from './ingest.contract.js';
export * from './webhook-delivery.contract.js';
export { closeWithin } from './close.js';
