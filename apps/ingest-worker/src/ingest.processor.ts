import { UnrecoverableError, type Job } from 'bullmq';
import {
  ingestJobDataSchema,
  runBulk,
  runWithContext,
  type Database,
  type IngestJobData,
  type IngestJobName,
  type IngestJobResult,
  type IngestRegistry,
  type Logger,
} from '@wms/shared';

export type IngestJob = Job<IngestJobData, IngestJobResult, IngestJobName>;

/**
 * One bulk request: every entry validated on its own and the valid ones written in batches through the
 * same handler (and master-data service) as the gateway's single write. A job that no retry can fix
 * (malformed payload, unknown entity) fails at once; a database error is thrown for BullMQ to retry.
 */
export function createIngestProcessor(db: Database, registry: IngestRegistry, logger: Logger) {
  return async (job: IngestJob): Promise<IngestJobResult> => {
    const { error } = ingestJobDataSchema.validate(job.data);
    if (error) throw new UnrecoverableError(`malformed ingest job: ${error.message}`);
    const handler = registry.get(job.name);
    if (!handler) throw new UnrecoverableError(`no ingest handler for ${job.name}`);
    const { tenantId, entries, requestId } = job.data;
    return runWithContext({ requestId, jobId: job.id }, async () => {
      const log = logger.child({ jobId: job.id, requestId, entity: job.name });
      const started = Date.now();
      const result = await runBulk(db, handler, entries, { tenantId });
      log.info({ total: result.total, created: result.created, updated: result.updated, errors: result.errors.length, ms: Date.now() - started }, 'ingest job done');
      return result;
    });
  };
}
