import { caseSensitiveRouter, liftDeadline, requestIdOf, type KeyHandler } from '../http/index.js';
import { once } from 'node:events';
import { type Router } from 'express';
import { AppError, closeWithin, quantityFormatOf, queuePrefix, type AppLifecycle, type Runtime } from '@wms/platform';
import type { AcceptedEnvelope } from '@wms/ingest';
import { StockSnapshotsService, createStockSnapshotsQueue } from '@wms/warehouse';
import type { Services } from '../services.js';
import { jsonBody, mount } from './scope.js';
import { versionOf } from './api-version.middleware.js';
import { bodyTenant, keyTenant } from './key-tenant.js';
import { INTEGRATION_ROUTES as ROUTES } from './route-table.js';

const JOBS_PATH = '/api/v1/integration/v1/jobs';

/** The gateway's snapshot service: its queue handle shares the gateway's fail-fast Redis connection. */
export function createSnapshotsService(runtime: Runtime, lifecycle: AppLifecycle): StockSnapshotsService {
  const queue = createStockSnapshotsQueue({ connection: runtime.redis, prefix: queuePrefix(runtime.config) });
  queue.on('error', () => undefined);
  lifecycle.onClose(() => closeWithin(queue, 2_000));
  return new StockSnapshotsService(runtime.db, queue);
}

/** A snapshot's status and file paths. */
export const snapshotPaths = (id: string) => ({ statusUrl: `${JOBS_PATH}/${id}`, fileUrl: `${JOBS_PATH}/${id}/file` });

/**
 * POST /stock/snapshots (202 with the job; Idempotency-Key replays it) and GET /jobs/:jobId/file, the NDJSON file of a completed
 * snapshot, written as it is read, a few chunks at a time, its quantities as the request's version sends them
 * (GET /jobs/:jobId is the jobs routes'). Another key's snapshot is not found.
 */
export function snapshotRoutes(services: Services, snapshots: StockSnapshotsService, idempotency: KeyHandler): Router {
  const router = caseSensitiveRouter();
  mount(router, ROUTES.snapshots, ...jsonBody, idempotency, async (req, res) => {
    const tenantId = await keyTenant(req, services, bodyTenant(req.body) ?? req.query.tenantId);
    const jobId = await snapshots.request(tenantId, req.apiKey.id, req.body);
    const accepted: AcceptedEnvelope = {
      status: 'accepted',
      jobId,
      statusUrl: snapshotPaths(jobId).statusUrl,
      requestId: requestIdOf(req),
    };
    res.status(202).json(accepted);
  });
  mount(router, ROUTES.snapshotFile, async (req, res) => {
    const snapshot = await snapshots.find(String(req.params.jobId), req.apiKey.id);
    if (!snapshot) throw AppError.notFound(`Job ${String(req.params.jobId)} not found`);
    if (snapshot.state !== 'completed')
      throw AppError.conflict('INVALID_STATE', `Snapshot ${snapshot.id} is ${snapshot.state}: its file is not ready`);
    res.status(200).type('application/x-ndjson');
    res.set('Content-Disposition', `attachment; filename="${snapshot.id}.ndjson"`);
    // As long as the client takes the chunks: the deadline bounds the answer's start, not a download.
    liftDeadline(res);
    try {
      for await (const text of snapshots.file(snapshot, quantityFormatOf(versionOf(req)))) {
        if (!res.write(text)) await once(res, 'drain');
      }
      res.end();
    } catch (error) {
      if (!res.headersSent) throw error;
      res.destroy(error as Error);
    }
  });
  return router;
}
