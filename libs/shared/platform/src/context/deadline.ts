import { performance } from 'node:perf_hooks';
import { AppError } from '../errors/index.js';
import { currentContext } from './request-context.js';

/** The error of work asked for once its request's deadline has passed (the caller was answered 503). */
export function deadlinePassedError(): AppError {
  return new AppError('REQUEST_TIMEOUT', 'The request took longer than its deadline; retry it');
}

/** Milliseconds left before the current request's deadline; null outside a request with one. */
export function timeLeft(): number | null {
  const at = currentContext()?.deadlineAt;
  return at === undefined ? null : at - performance.now();
}

/** Throws when the current request's deadline has passed: its work is abandoned at its next statement. */
export function refusePastDeadline(): void {
  const left = timeLeft();
  if (left !== null && left <= 0) throw deadlinePassedError();
}
