import type { Transaction } from 'sequelize';
import type { IdempotencyClaim } from '@wms/shared';

/** What the idempotency middleware gives the handler of a request that holds an Idempotency-Key. */
export interface RequestIdempotency {
  claim: IdempotencyClaim;
  /** Stores the answer in the write's transaction (both commit or neither); call markStored after the commit. */
  storeInTransaction(status: number, body: unknown, transaction: Transaction): Promise<void>;
  markStored(): void;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** The body's bytes as received, for the idempotency fingerprint. */
      rawBody?: Buffer;
      idempotency?: RequestIdempotency;
    }
  }
}

export {};
