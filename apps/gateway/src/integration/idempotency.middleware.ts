import './request.types.js';
import type { RequestHandler, Response } from 'express';
import {
  checkIdempotencyKey,
  inProgressError,
  mismatchError,
  requestFingerprint,
  type IdempotencyClaim,
  type Logger,
  type Services,
} from '@wms/shared';

export const IDEMPOTENT_REPLAY_HEADER = 'Idempotent-Replay';

/**
 * Idempotency-Key on integration POSTs (seed 4.5, CONTRACT.md section 4). Runs after the guard, so
 * its 401/403/429 are never stored. The handler's 2xx and 4xx answers are stored before they are
 * sent; a 5xx gives the key back. A single write stores its answer in its own transaction instead.
 */
export function idempotency(services: Pick<Services, 'idempotency'>, logger: Logger): RequestHandler {
  return async (req, res, next) => {
    const header = req.get('Idempotency-Key');
    if (header === undefined) return next();
    const key = checkIdempotencyKey(header);
    const fingerprint = requestFingerprint(req.method, req.originalUrl, req.rawBody);
    const outcome = await services.idempotency.claim(req.apiKey!.id, key, fingerprint);
    switch (outcome.kind) {
      case 'mismatch':
        throw mismatchError();
      case 'in_progress':
        throw inProgressError();
      case 'replay':
        res.status(outcome.status).set(IDEMPOTENT_REPLAY_HEADER, 'true').type('application/json').send(outcome.body);
        return;
      case 'claimed':
        attach(req, res, outcome.claim, services, logger);
        next();
    }
  };
}

function attach(
  req: Parameters<RequestHandler>[0],
  res: Response,
  claim: IdempotencyClaim,
  services: Pick<Services, 'idempotency'>,
  logger: Logger,
): void {
  let stored = false;
  req.idempotency = {
    claim,
    async storeInTransaction(status, body, transaction) {
      await services.idempotency.completeInTransaction(claim, status, JSON.stringify(body), transaction);
    },
    markStored() {
      stored = true;
    },
  };
  // Every integration answer goes out through res.json (handlers and the error handler alike).
  const send = res.json.bind(res);
  res.json = (body: unknown) => {
    if (stored) return send(body);
    stored = true;
    const status = res.statusCode;
    const work =
      status >= 500 ? services.idempotency.release(claim) : services.idempotency.complete(claim, status, JSON.stringify(body));
    work.then(
      () => send(body),
      (error: unknown) => {
        // The answer still goes out; the key stays claimed until its lease runs out, then a retry may run.
        logger.error({ err: error, requestId: req.requestId }, 'could not store the idempotent answer');
        send(body);
      },
    );
    return res;
  };
}
