export { defaultJobOptions, type QueueSettings } from './queues.js';
export {
  INGEST_QUEUE,
  createIngestQueue,
  ingestJobDataSchema,
  ingestJobOptions,
  type IngestJobData,
  type IngestJobName,
  type IngestJobResult,
  type IngestQueue,
} from './ingest.contract.js';
