import type { NextFunction, RequestHandler } from 'express';

/**
 * Several middleware as one layer of the stack: the router matches and dispatches once for all of them
 * (each layer costs it a path match and its bookkeeping on every request). Each runs when the one before
 * calls next; an error, thrown or passed, or a rejected promise goes to Express' next as the router would
 * send it.
 */
export function inOrder(...handlers: RequestHandler[]): RequestHandler {
  return (req, res, next) => {
    let index = 0;
    const step: NextFunction = (error?: unknown) => {
      if (error !== undefined && error !== null) return next(error);
      const handler = handlers[index++];
      if (!handler) return next();
      try {
        const result: unknown = handler(req, res, step);
        if (result instanceof Promise)
          result.catch((failure: unknown) => next(failure ?? new Error('middleware failed')));
      } catch (failure) {
        next(failure);
      }
    };
    step();
  };
}
