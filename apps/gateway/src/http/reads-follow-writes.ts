import type { Request, RequestHandler, Response } from 'express';
import { ACROSS_TENANTS, type Logger, type ReadRouting } from '@wms/platform';
import { answerPipeline } from './answer-pipeline.js';
import { keyOf, personOf } from './caller.js';

/** A tenant a cross-tenant caller names in the query or the body (`tenantId`), as the routes read it. */
function namedTenant(req: Request): string | undefined {
  const fromQuery: unknown = req.query?.tenantId;
  if (typeof fromQuery === 'string' && fromQuery.length > 0) return fromQuery;
  const body: unknown = req.body;
  const fromBody = body && typeof body === 'object' ? (body as { tenantId?: unknown }).tenantId : undefined;
  return typeof fromBody === 'string' && fromBody.length > 0 ? fromBody : undefined;
}

/**
 * Which tenant's writes a request's reads must see, and its writes count for: the tenant of its API key or
 * signed-in user; for a cross-tenant one, the tenant it names, else every tenant (ACROSS_TENANTS). Null
 * when no caller was named (a sign-in, a public page): its reads see any replica, its writes count for no
 * tenant.
 */
function tenantOf(req: Request): string | null {
  const who = keyOf(req) ?? personOf(req);
  if (!who) return null;
  return who.tenantId ?? namedTenant(req) ?? ACROSS_TENANTS;
}

/**
 * Before a read answers that work has ended (a bulk job, an import, a snapshot: committed by a worker), the
 * tenant's position is stored as if the read had written: the worker stores its own only after the commit,
 * and a caller told "completed" in between must not then read a replica without the work's rows. Without
 * read replicas nothing is held.
 */
export async function beforeTellingOfWrites(res: Response): Promise<void> {
  const record = (res.locals as { recordToldWrites?: () => Promise<void> }).recordToldWrites;
  if (record) await record();
}

/** A refused request (4xx) wrote nothing; any other answer to a write may follow a commit. */
function mayHaveWritten(res: Response): boolean {
  return res.statusCode < 400 || res.statusCode >= 500;
}

/**
 * Read-your-writes per tenant over the read replicas, for every request of the gateway. A GET (or HEAD)
 * runs with its inquiry and list reads routed for its tenant (see ReadRouting.runReads). Any other method
 * is a write: its answer is held until the primary's WAL position is stored as its tenant's last write, so
 * the next read of any caller of that tenant, whichever gateway takes it, cannot reach a replica that has
 * not replayed the write. The tenant is read when needed, after the guards of the route have named the
 * caller.
 */
export function readsFollowWrites(routing: ReadRouting, logger: Logger): RequestHandler {
  return (req, res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD') {
      res.locals.recordToldWrites = async () => {
        const tenant = tenantOf(req);
        if (tenant === null) return;
        await routing
          .afterWrite(tenant)
          .catch((error: unknown) =>
            logger.warn({ err: error }, "a tenant's write position was not stored: its next read may miss the write"),
          );
      };
      routing.runReads(() => tenantOf(req), next);
      return;
    }
    // Stage 4 of the answer pipeline: the answer's end waits until the position is stored.
    answerPipeline(res).record = async () => {
      const tenant = tenantOf(req);
      if (tenant === null || !mayHaveWritten(res)) return;
      await routing
        .afterWrite(tenant)
        .catch((error: unknown) =>
          logger.warn({ err: error }, "a tenant's write position was not stored: its next read may miss the write"),
        );
    };
    next();
  };
}
