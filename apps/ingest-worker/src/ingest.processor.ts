import { UnrecoverableError, type Job } from 'bullmq';
import { runWithContext, type TenantWrites, type Logger } from '@wms/platform';
import { ingestEntries, ingestJobDuration, ingestJobs, ingestQueueWait } from '@wms/ingest';
import {
  BulkJobRefused,
  ingestJobSummary,
  type BulkJobEnds,
  type BulkJobRunner,
  type BulkResult,
  type IngestJobData,
  type IngestJobName,
  type IngestJobResult,
} from '@wms/ingest';

export type IngestJob = Job<IngestJobData, IngestJobResult, IngestJobName>;

/**
 * One bulk request, read from its row in PostgreSQL: every entry validated on its own and the valid ones
 * written through the same handler (and master-data service) as the gateway's single write, at most once
 * however often the job is dispatched. A job no retry can fix fails at once; any other error is thrown
 * for BullMQ to retry, and the last attempt's failure is recorded on the row. With read replicas
 * (`tenantWrites`), the job's writes become its tenant's last write, so the tenant's later reads see them.
 */
export function createIngestProcessor(
  runner: BulkJobRunner,
  ends: Pick<BulkJobEnds, 'fail'>,
  logger: Logger,
  tenantWrites: TenantWrites | null = null,
) {
  return async (job: IngestJob): Promise<IngestJobResult> => {
    const jobId = job.id!;
    const { requestId, traceId } = job.data;
    const entity = job.name;
    if (job.attemptsMade === 0) {
      const waitedMs = (job.processedOn ?? Date.now()) - job.timestamp - (job.delay ?? 0);
      ingestQueueWait.labels(entity).observe(Math.max(0, waitedMs) / 1000);
    }
    const context = traceId ? { requestId, jobId, traceId } : { requestId, jobId };
    return runWithContext(context, async () => {
      // The context puts requestId, jobId and traceId on every line (this one's and the services' alike).
      const log = logger.child({ entity });
      const endTimer = ingestJobDuration.startTimer({ entity });
      const started = Date.now();
      let result: BulkResult;
      try {
        result = (await runner.run(jobId)).result;
      } catch (error) {
        ingestJobs.labels(entity, 'failed').inc();
        const refused = error instanceof BulkJobRefused;
        if (refused || job.attemptsMade + 1 >= (job.opts.attempts ?? 1)) {
          await ends
            .fail(jobId, (error as Error).message)
            .catch((failError: unknown) => log.warn({ err: failError }, 'could not record the failed bulk job'));
        }
        if (refused) throw new UnrecoverableError((error as Error).message);
        throw error;
      } finally {
        endTimer();
      }
      await tenantWrites
        ?.afterWrite(job.data.tenantId)
        .catch((error: unknown) =>
          log.warn(
            { err: error },
            "the tenant's write position was not stored: its next read may miss the job's writes",
          ),
        );
      ingestJobs.labels(entity, 'completed').inc();
      ingestEntries.labels(entity, 'created').inc(result.created);
      ingestEntries.labels(entity, 'updated').inc(result.updated);
      ingestEntries.labels(entity, 'error').inc(result.errors.length);
      log.info(
        {
          total: result.total,
          created: result.created,
          updated: result.updated,
          errors: result.errors.length,
          ms: Date.now() - started,
        },
        'ingest job done',
      );
      return ingestJobSummary(result);
    });
  };
}
