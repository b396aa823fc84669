import type { Response } from 'express';
import { hookAnswer } from './server.js';

/**
 * The answer pipeline: the one way an answer leaves the gateway. A handler (and the error handler) sends
 * its answer with `res.json` as Express has it; the stages a request's middleware gave it then run in this
 * order, and in no other place:
 *
 * 1. `store`: the idempotent answer, as the handler gave it (integration/idempotency.middleware.ts). A 2xx
 *    or 4xx is stored, a 5xx gives the key back; the answer waits for it, and goes out even when storing
 *    failed (the stage logs that). An answer that went out meanwhile (a request answered at its deadline
 *    whose work answered too) stands.
 * 2. `render`: the body in the request's dated version (integration/api-version.middleware.ts). A replay
 *    renders the stored answer again in this request's version, as the first was in its own.
 * 3. Express writes the JSON (status, headers, body).
 * 4. `record`: before the answer's last byte, the tenant's write position (http/reads-follow-writes.ts),
 *    so the tenant's next read cannot reach a replica without this request's write. Its failure is logged
 *    by the stage; the answer still goes.
 *
 * An answer sent as text (`res.send`, the inquiries PostgreSQL builds as JSON) passes stage 4 only.
 */
export interface AnswerStages {
  /** Stores the answer; undefined when it was stored already (in the write's transaction). Never rejects. */
  store?: (body: unknown) => Promise<void> | undefined;
  render?: (body: unknown) => unknown;
  /** Never rejects. */
  record?: () => Promise<void>;
}

const PIPELINE = 'answerPipeline';

/** The stages of this request's answer; the first call hooks the answer into the pipeline. */
export function answerPipeline(res: Response): AnswerStages {
  const existing = res.locals[PIPELINE] as AnswerStages | undefined;
  if (existing) return existing;
  const stages: AnswerStages = {};
  res.locals[PIPELINE] = stages;
  let ending = false;
  hookAnswer(res, {
    json(body, send) {
      const sendRendered = () => send(stages.render ? stages.render(body) : body);
      const storing = stages.store?.(body);
      if (!storing) return sendRendered();
      const sendOnce = () => {
        if (!res.headersSent) sendRendered();
      };
      void storing.then(sendOnce, sendOnce);
      return res;
    },
    end(finish) {
      if (!stages.record || ending) return finish();
      ending = true;
      void stages.record().then(finish, finish);
      return res;
    },
  });
  return stages;
}
