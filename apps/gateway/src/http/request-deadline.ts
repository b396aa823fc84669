import { performance } from 'node:perf_hooks';
import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import { currentContext, deadlinePassedError, runWithContext } from '@wms/platform';
import { requestIdOf } from './request-state.js';

interface Deadline {
  /** Moves the deadline `ms` later (a wait with its own bound, such as a bulk call's for its job). */
  extend(ms: number): void;
  /** Takes the deadline away (an upload, bounded by its body's own limits). */
  lift(): void;
}

/**
 * Gives every request a deadline `timeoutMs` after its arrival (REQUEST_TIMEOUT_MS). A request not answered
 * by then is answered 503 REQUEST_TIMEOUT with Retry-After, in its format, by `answer` (the error handler);
 * its work is abandoned: the request's context carries the deadline, so its next statement is refused and
 * its transaction rolls back instead of committing (`refusePastDeadline`), and whatever it answers later is
 * dropped (`answeredAtDeadline`). A request answered in time takes its deadline away, so work it left
 * running (a flush it scheduled) is not refused later.
 */
export function requestDeadline(timeoutMs: number, answer: ErrorRequestHandler): RequestHandler {
  return (req, res, next) => {
    const context = currentContext();
    let timer: NodeJS.Timeout | undefined;
    const arm = (at: number) => {
      clearTimeout(timer);
      if (context) context.deadlineAt = at;
      timer = setTimeout(() => passed(req, res, answer), Math.max(0, at - performance.now()));
      // A deadline keeps no process alive: a server that stops has no one to answer.
      timer.unref();
    };
    let at = performance.now() + timeoutMs;
    arm(at);
    const deadline: Deadline = {
      extend(ms) {
        at += ms;
        arm(at);
      },
      lift() {
        clearTimeout(timer);
        if (context) delete context.deadlineAt;
      },
    };
    res.locals.deadline = deadline;
    res.once('close', () => {
      clearTimeout(timer);
      if (context && !answeredAtDeadline(res)) delete context.deadlineAt;
    });
    next();
  };
}

function passed(req: Request, res: Response, answer: ErrorRequestHandler): void {
  // An answer already under way (a file streamed out chunk by chunk) is left to finish, statements and all.
  if (res.headersSent) {
    liftDeadline(res);
    return;
  }
  // The answer's own statements (an Idempotency-Key given back) run in a context of their own without the
  // deadline: only the abandoned work is refused.
  const { deadlineAt: _passed, ...context } = currentContext() ?? { requestId: requestIdOf(req) };
  runWithContext(context, () => answer(deadlinePassedError(), req, res, () => undefined));
  res.locals.answeredAtDeadline = true;
}

/** True once the request was answered 503 at its deadline: a later answer or failure of its work is dropped. */
export function answeredAtDeadline(res: Response): boolean {
  return res.locals.answeredAtDeadline === true;
}

/** Moves the request's deadline `ms` later, for a wait bounded by its own setting. */
export function extendDeadline(res: Response, ms: number): void {
  (res.locals.deadline as Deadline | undefined)?.extend(ms);
}

/** Takes the request's deadline away: for an upload, whose body's idle and rate limits bound it instead. */
export function liftDeadline(res: Response): void {
  (res.locals.deadline as Deadline | undefined)?.lift();
}

/** A route's first step when its own limits bound it instead of the deadline (an upload's body). */
export const withoutDeadline: RequestHandler = (_req, res, next) => {
  liftDeadline(res);
  next();
};
