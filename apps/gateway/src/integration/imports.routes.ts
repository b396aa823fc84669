import {
  caseSensitiveRouter,
  liftDeadline,
  requestIdOf,
  setRawBody,
  withoutDeadline,
  type KeyHandler,
  type KeyRequest,
} from '../http/index.js';
import { once } from 'node:events';
import { type Router, type Request, type RequestHandler, type Response } from 'express';
import { AppError, closeWithin, queuePrefix, type AppLifecycle, type Runtime } from '@wms/platform';
import type { Services } from '../services.js';
import {
  ImportTurns,
  ImportTurnsRepository,
  ImportsRepository,
  ImportsService,
  TenantUploadLeases,
  createImportsQueue,
  isImportId,
  successEnvelope,
  type AcceptedEnvelope,
  type StoredImport,
} from '@wms/ingest';
import { mount } from './scope.js';
import { keyTenant } from './key-tenant.js';
import { IMPORT_ROUTES } from './imports.route-table.js';

/**
 * POST /imports (a file, streamed: no JSON body parser runs), GET /jobs/:jobId/errors and DELETE
 * /jobs/:jobId of an import (GET /jobs/:jobId is the jobs routes', for bulk jobs and imports alike).
 * Another key's import is not found.
 */
export function importsRoutes(services: Services, imports: ImportsService, idempotency: KeyHandler): Router {
  const router = caseSensitiveRouter();
  mount(router, IMPORT_ROUTES.upload, withoutDeadline, fileFingerprint, idempotency, async (req, res) => {
    const tenantId = await closingUnread(req, res, () => keyTenant(req, services, req.query.tenantId));
    const { jobId, statusUrl } = await acceptFile(imports, req, res, { apiKeyId: req.apiKey.id }, tenantId);
    const accepted: AcceptedEnvelope = { status: 'accepted', jobId, statusUrl, requestId: requestIdOf(req) };
    res.status(202).json(accepted);
  });
  mount(router, IMPORT_ROUTES.errors, async (req, res) => {
    const job = await ownImport(imports, req);
    if (!job) throw AppError.notFound(`Job ${String(req.params.jobId)} not found`);
    await sendErrors(imports, job, req, res);
  });
  mount(router, IMPORT_ROUTES.cancel, async (req, res) => {
    const job = await ownImport(imports, req);
    if (!job) throw AppError.notFound(`Job ${String(req.params.jobId)} not found`);
    res.json(successEnvelope(await imports.cancel(job.id), requestIdOf(req)));
  });
  return router;
}

/** The gateway's import service: its queue handle shares the gateway's fail-fast Redis connection. */
export function createImportsService(runtime: Runtime, services: Services, lifecycle: AppLifecycle): ImportsService {
  const { config } = runtime;
  const queue = createImportsQueue({ connection: runtime.redis, prefix: queuePrefix(config) });
  queue.on('error', () => undefined);
  lifecycle.onClose(() => closeWithin(queue, 2_000));
  const repository = new ImportsRepository(runtime.db, config);
  const turns = new ImportTurns(
    runtime.db,
    new ImportTurnsRepository(runtime.db),
    queue,
    config.imports.tenantConcurrency,
  );
  // One tenant's uploads are counted across every gateway, so spreading them over gateways gains it nothing.
  const leases = new TenantUploadLeases(runtime.redis, config.redisKeyPrefix, config.imports.maxUploadsPerTenant);
  return new ImportsService(runtime.db, repository, services.ingest, config.imports, turns, services.events, {
    leases,
    logger: runtime.logger,
  });
}

/** The import of this key named by the path, or null (not an import id, none, or another key's). */
async function ownImport(imports: ImportsService, req: KeyRequest): Promise<StoredImport | null> {
  const jobId = String(req.params.jobId);
  if (!isImportId(jobId)) return null;
  const job = await imports.find(jobId);
  return job && job.apiKeyId === req.apiKey.id ? job : null;
}

/**
 * The Idempotency-Key fingerprint of a file is its method, URL and content headers: the file itself is
 * streamed to PostgreSQL, never held to be hashed.
 */
export const fileFingerprint: RequestHandler = (req, _res, next) => {
  const headers = ['content-type', 'content-encoding', 'content-length'].map((name) => req.get(name) ?? '');
  setRawBody(req, Buffer.from(headers.join('\n')));
  next();
};

/** Streams the request's body into the import service (see closingUnread for a refusal). */
export async function acceptFile(
  imports: ImportsService,
  req: Request,
  res: Response,
  owner: { apiKeyId: string } | { userId: string },
  tenantId: string,
): Promise<{ jobId: string; statusUrl: string }> {
  return closingUnread(req, res, () =>
    imports.accept({
      tenantId,
      owner,
      entity: req.query.entity,
      contentType: req.get('content-type'),
      contentEncoding: req.get('content-encoding'),
      contentLength: req.get('content-length'),
      body: req,
      requestId: requestIdOf(req),
    }),
  );
}

/**
 * Runs a step of an upload; when it refuses before the body was read to its end, the connection is closed
 * after the answer, so a client still sending learns it at once instead of uploading the rest.
 */
export async function closingUnread<T>(req: Request, res: Response, step: () => T | Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (!req.complete) res.set('Connection', 'close');
    throw error;
  }
}

/** Writes the failed rows as they are read, a page at a time, waiting for the client to take each. */
export async function sendErrors(imports: ImportsService, job: StoredImport, req: Request, res: Response) {
  const csv = req.accepts(['application/x-ndjson', 'text/csv']) === 'text/csv' && !!req.get('accept')?.includes('csv');
  res.status(200).type(csv ? 'text/csv; charset=utf-8' : 'application/x-ndjson');
  res.set('Content-Disposition', `attachment; filename="${job.id}-errors.${csv ? 'csv' : 'ndjson'}"`);
  // As long as the client takes the pages: the deadline bounds the answer's start, not a download.
  liftDeadline(res);
  try {
    for await (const text of imports.errors(job, csv ? 'csv' : 'ndjson')) {
      if (!res.write(text)) await once(res, 'drain');
    }
    res.end();
  } catch (error) {
    if (!res.headersSent) throw error;
    res.destroy(error as Error);
  }
}
