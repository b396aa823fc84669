import type { IdempotencyClaim, UnitOfWork } from '@wms/platform';

/** What the idempotency middleware gives the handler of a request that holds an Idempotency-Key. */
export interface RequestIdempotency {
  claim: IdempotencyClaim;
  /** Stores the answer in the write's transaction (both commit or neither); call markStored after the commit. */
  storeInTransaction(status: number, body: unknown, transaction: UnitOfWork): Promise<void>;
  markStored(): void;
  /** Stores an answer that is JSON text already (it is then sent as it is, not through res.json). */
  storeText(status: number, body: string): Promise<void>;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      idempotency?: RequestIdempotency;
    }
  }
}

export {};
