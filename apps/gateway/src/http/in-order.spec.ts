import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { inOrder } from './in-order.js';

const req = {} as Request;
const res = {} as Response;

/** Runs the chain and resolves with what reached Express' next (undefined when all passed). */
function run(chain: RequestHandler): Promise<unknown> {
  return new Promise((resolve) => {
    const next: NextFunction = (error?: unknown) => resolve(error);
    void chain(req, res, next);
  });
}

describe('middleware in order, as one layer', () => {
  it('runs each one when the one before calls next, then passes on', async () => {
    const seen: string[] = [];
    const step =
      (name: string): RequestHandler =>
      (_req, _res, next) => {
        seen.push(name);
        next();
      };

    await expect(run(inOrder(step('a'), step('b'), step('c')))).resolves.toBeUndefined();
    expect(seen).toEqual(['a', 'b', 'c']);
  });

  it('stops at one that answers without calling next', async () => {
    const seen: string[] = [];
    const chain = inOrder(
      () => seen.push('answers'),
      () => seen.push('never'),
    );
    let passed = false;
    void chain(req, res, () => (passed = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect({ seen, passed }).toEqual({ seen: ['answers'], passed: false });
  });

  it('hands an error thrown, passed to next, or rejected to Express and runs nothing after it', async () => {
    const failure = new Error('refused');
    const never: RequestHandler = () => {
      throw new Error('ran after the error');
    };
    const thrown: RequestHandler = () => {
      throw failure;
    };
    const passed: RequestHandler = (_req, _res, next) => next(failure);
    const rejected: RequestHandler = async () => {
      await Promise.resolve();
      throw failure;
    };
    for (const failing of [thrown, passed, rejected]) {
      await expect(run(inOrder((_req, _res, next) => next(), failing, never))).resolves.toBe(failure);
    }
  });
});
