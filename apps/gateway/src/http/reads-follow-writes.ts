import type { Request, RequestHandler, Response } from 'express';
import { caller, type Logger, type ReadRouting } from '@wms/platform';

/** Who a request speaks for, as the read routing keys its writes: the API key, else the signed-in user. */
function callerOf(req: Request): string | null {
  if (req.apiKey) return caller.apiKey(req.apiKey.id);
  if (req.principal) return caller.user(req.principal.sub);
  return null;
}

/** A refused request (4xx) wrote nothing; any other answer to a write may follow a commit. */
function mayHaveWritten(res: Response): boolean {
  return res.statusCode < 400 || res.statusCode >= 500;
}

/**
 * Read-your-writes over the read replicas, for every request of the gateway. A GET (or HEAD) runs with its
 * inquiry and list reads routed for its caller (see ReadRouting.runReads). Any other method is a write:
 * its answer is held until the primary's WAL position is stored as its caller's last write, so the
 * caller's next read, whichever gateway takes it, cannot reach a replica that has not replayed the write.
 * The caller is read when needed, after the guards of the route have named it.
 */
export function readsFollowWrites(routing: ReadRouting, logger: Logger): RequestHandler {
  return (req, res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD') {
      routing.runReads(() => callerOf(req), next);
      return;
    }
    holdAnswer(
      res,
      async () => {
        const who = callerOf(req);
        if (who !== null && mayHaveWritten(res)) await routing.afterWrite(who);
      },
      logger,
    );
    next();
  };
}

/** Delays the end of the answer until `before` has settled (its failure is logged; the answer still goes). */
function holdAnswer(res: Response, before: () => Promise<void>, logger: Logger): void {
  const end = res.end.bind(res) as (...args: unknown[]) => Response;
  let held = false;
  res.end = ((...args: unknown[]) => {
    if (held) return end(...args);
    held = true;
    before()
      .catch((error: unknown) =>
        logger.warn({ err: error }, "a caller's write position was not stored: its next read may miss the write"),
      )
      .finally(() => end(...args));
    return res;
  }) as Response['end'];
}
