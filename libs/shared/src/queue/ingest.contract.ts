import Joi from 'joi';
import { Queue, type JobsOptions } from 'bullmq';
import type { BulkResult } from '../integration/envelopes.js';
import { defaultJobOptions, type QueueSettings } from './queues.js';

/**
 * The contract of the ingest queue, imported by its producer (the gateway's bulk endpoints) and its
 * consumer (the ingest worker). A job is one bulk request of one API key in one tenant.
 */
export const INGEST_QUEUE = 'ingest';

/** Job names are the entities of the ingest registry; later capabilities (asns, orders) add theirs here. */
export type IngestJobName = 'items' | 'partners' | 'locations' | 'asn' | 'orders';

export interface IngestJobData {
  tenantId: string;
  /** Owner of the job: only this key may read it through GET /jobs/:jobId. */
  apiKeyId: string;
  /** The request that enqueued it, for the worker's log lines. */
  requestId: string;
  /** The bulk body's entries as received; the worker validates each one. */
  entries: unknown[];
}

/** The bulk envelope without requestId (the answer that reads it adds its own). */
export type IngestJobResult = BulkResult;

export type IngestQueue = Queue<IngestJobData, IngestJobResult, IngestJobName>;

/** What the worker checks before it trusts a job (a job no retry can fix fails at once). */
export const ingestJobDataSchema = Joi.object<IngestJobData>({
  tenantId: Joi.string().guid().required(),
  apiKeyId: Joi.string().guid().required(),
  requestId: Joi.string().required(),
  entries: Joi.array().min(1).max(10_000).required(),
});

/**
 * Attempts cover a database that goes away for a moment; each attempt runs in one transaction, so a
 * retried job never finds half of itself written.
 */
export const ingestJobOptions: JobsOptions = {
  ...defaultJobOptions,
  attempts: 3,
  backoff: { type: 'exponential', delay: 1_000 },
};

export function createIngestQueue(settings: QueueSettings): IngestQueue {
  return new Queue<IngestJobData, IngestJobResult, IngestJobName>(INGEST_QUEUE, {
    connection: settings.connection,
    prefix: settings.prefix,
    defaultJobOptions: ingestJobOptions,
    // Completed events carry the bulk result (tens of kB): keep the event stream short.
    streams: { events: { maxLen: 1_000 } },
  });
}
