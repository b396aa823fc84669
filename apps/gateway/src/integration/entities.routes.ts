import { caseSensitiveRouter, extendDeadline, requestIdOf, traceIdOf, type KeyHandler } from '../http/index.js';
import { type Router } from 'express';
import { AppError, compileValidator, unitOfWork, validate, type Runtime } from '@wms/platform';
import type { Services } from '../services.js';
import {
  bulkEnvelope,
  bulkEnvelopeText,
  bulkBodyValidator,
  bulkFieldOf,
  bulkHttpStatus,
  runBulk,
  successEnvelope,
  writeOne,
  type AcceptedEnvelope,
  type IngestEntity,
  type IngestHandler,
  type IntegrationRoute,
} from '@wms/ingest';
import { randomUUID } from 'node:crypto';
import { jsonBody, mount } from './scope.js';
import type { IngestJobs } from '@wms/ingest';
import { bodyTenant, keyTenant } from './key-tenant.js';
import { bulkWriteRoute, singleWriteRoute } from './route-table.js';
import { idempotencyOf } from './idempotency.middleware.js';

export const INTEGRATION_BASE_PATH = '/api/v1/integration/v1';

/**
 * POST /<entity> and POST /<entity>/bulk for every handler of the ingest registry. A single write runs
 * here, in one transaction with its idempotency record; a bulk call becomes one ingest job (or, with
 * ?dryRun=true, runs here and is rolled back).
 */
export function entityRoutes(runtime: Runtime, services: Services, jobs: IngestJobs, idempotency: KeyHandler): Router {
  const router = caseSensitiveRouter();
  for (const handler of services.ingest.list()) {
    const single = singleWriteRoute(handler);
    mount(router, single, ...jsonBody, idempotency, singleWrite(runtime, services, handler, single));
    const bulk = bulkWriteRoute(handler);
    mount(router, bulk, ...jsonBody, idempotency, bulkWrite(runtime, services, jobs, handler, bulk));
  }
  return router;
}

function singleWrite(
  runtime: Runtime,
  services: Services,
  handler: IngestHandler,
  route: IntegrationRoute,
): KeyHandler {
  const schema = route.body!;
  return async (req, res) => {
    const tenantId = await keyTenant(req, services, bodyTenant(req.body));
    const { tenantId: _named, ...entry } = validate<Record<string, unknown>>(schema, req.body);
    const body = await unitOfWork(runtime.db, async (transaction) => {
      const envelope = successEnvelope(await writeOne(handler, { tenantId, transaction }, entry), requestIdOf(req));
      await idempotencyOf(req)?.storeInTransaction(handler.singleStatus, envelope, transaction);
      return envelope;
    });
    idempotencyOf(req)?.markStored();
    res.status(handler.singleStatus).json(body);
  };
}

function bulkWrite(
  runtime: Runtime,
  services: Services,
  jobs: IngestJobs,
  handler: IngestHandler<unknown, IngestEntity>,
  route: IntegrationRoute,
): KeyHandler {
  const checkBody = bulkBodyValidator(handler, 'Bulk request validation failed');
  const checkQuery = compileValidator<{ dryRun: boolean }>(route.query!, 'Query validation failed');
  return async (req, res) => {
    const { dryRun } = checkQuery(req.query);
    const body = checkBody(req.body);
    const tenantId = await keyTenant(req, services, body.tenantId);
    const entries = body[bulkFieldOf(handler)] as unknown[];

    if (dryRun) {
      const result = await runBulk(runtime.db, handler, entries, { tenantId, dryRun: true });
      res.status(bulkHttpStatus(result)).json(bulkEnvelope(result, requestIdOf(req)));
      return;
    }

    // Keyed by the Idempotency-Key's generation: a retry finds the job it started, never a second one.
    const claim = idempotencyOf(req)?.claim;
    const jobId = claim ? `ingest-${claim.claimId}` : randomUUID();
    const respondAsync = prefersAsync(req.get('Prefer'));
    const submitted = await jobs.submit({
      id: jobId,
      entity: handler.entity,
      tenantId,
      apiKeyId: req.apiKey.id,
      requestId: requestIdOf(req),
      ...(traceIdOf(req) ? { traceId: traceIdOf(req) } : {}),
      lane: respondAsync ? 'async' : 'sync',
      entries,
    });
    // The wait for the job has its own bound, which the request's deadline makes room for.
    if (!respondAsync) extendDeadline(res, runtime.config.bulkSyncTimeoutMs);
    let outcome = respondAsync
      ? jobs.leave(submitted)
      : await jobs.waitForResult(submitted, runtime.config.bulkSyncTimeoutMs);
    // A 202 after the wait tells the caller of the job's end by `bulk.completed` (respond-async jobs always do).
    if (outcome.state === 'pending' && !respondAsync) outcome = await jobs.answerAccepted(jobId);
    if (outcome.state === 'completed') {
      // The stored result is JSON text: it goes out (and into the idempotency record) as it is.
      const answer = bulkEnvelopeText(outcome.result, requestIdOf(req));
      await idempotencyOf(req)?.storeText(answer.status, answer.body);
      res.status(answer.status).type('application/json').send(answer.body);
    } else if (outcome.state === 'failed') {
      throw new AppError('INGEST_FAILED', `Bulk job ${jobId} failed; retry the request`);
    } else {
      const accepted: AcceptedEnvelope = {
        status: 'accepted',
        jobId,
        statusUrl: `${INTEGRATION_BASE_PATH}/jobs/${jobId}`,
        requestId: requestIdOf(req),
      };
      res.status(202).json(accepted);
    }
  };
}

/** RFC 7240: `Prefer: respond-async` (possibly among other preferences). */
export function prefersAsync(prefer: string | undefined): boolean {
  return (
    !!prefer &&
    prefer.split(',').some(
      (preference) =>
        preference
          .trim()
          .toLowerCase()
          .split(/[;=\s]/)[0] === 'respond-async',
    )
  );
}
