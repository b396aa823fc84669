import type { NextFunction, Request, Response } from 'express';
import {
  checkIdempotencyKey,
  inProgressError,
  mismatchError,
  parseWithExactQuantities,
  requestFingerprint,
  type IdempotencyClaim,
  type IdempotencyOwner,
  type Logger,
  type UnitOfWork,
} from '@wms/platform';
import type { Services } from '../services.js';
import { answerPipeline, apiVersionOf, rawBodyOf, requestIdOf, type KeyRequest } from '../http/index.js';

export const IDEMPOTENT_REPLAY_HEADER = 'Idempotent-Replay';

/** What the idempotency middleware gives the handler of a request that holds an Idempotency-Key. */
export interface RequestIdempotency {
  claim: IdempotencyClaim;
  /** Stores the answer in the write's transaction (both commit or neither); call markStored after the commit. */
  storeInTransaction(status: number, body: unknown, transaction: UnitOfWork): Promise<void>;
  markStored(): void;
  /** Stores an answer that is JSON text already (it is then sent as it is, not through res.json). */
  storeText(status: number, body: string): Promise<void>;
}

const IDEMPOTENCY = Symbol('idempotency');
type Claimed = Request & { [IDEMPOTENCY]?: RequestIdempotency };

/** The claimed Idempotency-Key of a request that holds one, once the middleware let it through. */
export const idempotencyOf = (req: Request): RequestIdempotency | undefined => (req as Claimed)[IDEMPOTENCY];

/** Integration calls keep their keys per API key. */
export const byApiKey = (req: KeyRequest): IdempotencyOwner => ({ apiKeyId: req.apiKey.id });

/**
 * Idempotency-Key on integration POSTs and on the warehouse operations (keys per user: `ownerOf`): a
 * repeated key replays the first answer. Runs after the guard, so its 401/403/429 are never stored. The
 * handler's 2xx and 4xx answers are stored before they are sent; a 5xx gives the key back. A write that
 * answers from its own transaction stores the answer in that transaction instead.
 */
export function idempotency<R extends Request>(
  services: Pick<Services, 'idempotency'>,
  logger: Logger,
  ownerOf: (req: R) => IdempotencyOwner,
): (req: R, res: Response, next: NextFunction) => Promise<void> {
  return async (req, res, next) => {
    const header = req.get('Idempotency-Key');
    if (header === undefined) return next();
    const key = checkIdempotencyKey(header);
    const fingerprint = requestFingerprint({
      method: req.method,
      url: req.originalUrl,
      bytes: rawBodyOf(req),
      // Express leaves the body undefined unless the JSON parser read one (an upload's never is).
      json: req.body === undefined ? undefined : { value: req.body },
    });
    const outcome = await services.idempotency.claim(ownerOf(req), key, fingerprint);
    switch (outcome.kind) {
      case 'mismatch':
        throw mismatchError(outcome.differs);
      case 'in_progress':
        throw inProgressError();
      case 'replay':
        res.status(outcome.status).set(IDEMPOTENT_REPLAY_HEADER, 'true');
        // An integration answer is rendered again in this request's dated version, as the first was in its own.
        if (apiVersionOf(req)) res.json(parseWithExactQuantities(outcome.body));
        else res.type('application/json').send(outcome.body);
        return;
      case 'claimed':
        attach(req, res, outcome.claim, services, logger);
        next();
    }
  };
}

function attach(
  req: Request,
  res: Response,
  claim: IdempotencyClaim,
  services: Pick<Services, 'idempotency'>,
  logger: Logger,
): void {
  let stored = false;
  (req as Claimed)[IDEMPOTENCY] = {
    claim,
    async storeInTransaction(status, body, transaction) {
      await services.idempotency.completeInTransaction(claim, status, JSON.stringify(body), transaction);
    },
    markStored() {
      stored = true;
    },
    async storeText(status, body) {
      stored = true;
      // As below: the answer still goes out when it cannot be stored; the lease then lets a retry run.
      await services.idempotency
        .complete(claim, status, body)
        .catch((error: unknown) =>
          logger.error({ err: error, requestId: requestIdOf(req) }, 'could not store the idempotent answer'),
        );
    },
  };
  // Stage 1 of the answer pipeline: every answer goes out through res.json (handlers and the error handler alike).
  answerPipeline(res).store = (body) => {
    if (stored) return undefined;
    stored = true;
    const status = res.statusCode;
    const work: Promise<unknown> =
      status >= 500
        ? services.idempotency.release(claim)
        : services.idempotency.complete(claim, status, JSON.stringify(body));
    return work.then(undefined, (error: unknown) => {
      // The answer still goes out; the key stays claimed until its lease runs out, then a retry may run.
      logger.error({ err: error, requestId: requestIdOf(req) }, 'could not store the idempotent answer');
    });
  };
}
