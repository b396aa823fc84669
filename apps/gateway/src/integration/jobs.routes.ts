import { type Router } from 'express';
import { AppError } from '@wms/platform';
import { isImportId, successEnvelope, type ImportsService } from '@wms/ingest';
import { mount } from './scope.js';
import { INTEGRATION_ROUTES } from './route-table.js';
import type { IngestJobs } from '@wms/ingest';
import { isSnapshotId, type StockSnapshotsService } from '@wms/warehouse';
import { snapshotPaths } from './snapshots.routes.js';
import { beforeTellingOfWrites, caseSensitiveRouter, requestIdOf } from '../http/index.js';

/** States after which a job writes nothing more: telling them is telling of the job's writes. */
const ENDED = new Set(['completed', 'failed', 'cancelled']);

/**
 * GET /jobs/:jobId: a bulk job of this API key (another key's job is not found), with the request id of
 * the call that submitted it; a file import's id (`import-…`) answers the import's status, a stock snapshot's
 * (`snapshot-…`) the snapshot's.
 */
export function jobsRoutes(jobs: IngestJobs, imports: ImportsService, snapshots: StockSnapshotsService): Router {
  const router = caseSensitiveRouter();
  mount(router, INTEGRATION_ROUTES.job, async (req, res) => {
    const jobId = String(req.params.jobId);
    if (isImportId(jobId)) {
      const view = await imports.view(jobId, req.apiKey.id);
      if (!view) throw AppError.notFound(`Job ${jobId} not found`);
      if (ENDED.has(view.state)) await beforeTellingOfWrites(res);
      res.json(successEnvelope(view, requestIdOf(req)));
      return;
    }
    if (isSnapshotId(jobId)) {
      const snapshot = await snapshots.find(jobId, req.apiKey.id);
      if (!snapshot) throw AppError.notFound(`Job ${jobId} not found`);
      if (ENDED.has(snapshot.state)) await beforeTellingOfWrites(res);
      res.json(successEnvelope(snapshots.view(snapshot, snapshotPaths(jobId).fileUrl), requestIdOf(req)));
      return;
    }
    const job = await jobs.read(jobId, req.apiKey.id);
    if (!job) throw AppError.notFound(`Job ${jobId} not found`);
    // data.requestId names the bulk call that created the job (the envelope's is this request's own).
    const { state, result, requestId, traceId } = job;
    if (ENDED.has(state)) await beforeTellingOfWrites(res);
    res.json(successEnvelope({ jobId, state, result, requestId, ...(traceId ? { traceId } : {}) }, requestIdOf(req)));
  });
  return router;
}
