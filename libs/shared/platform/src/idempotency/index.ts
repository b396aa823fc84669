export {
  IdempotencyService,
  requestFingerprint,
  checkIdempotencyKey,
  inProgressError,
  mismatchError,
  type IdempotencyClaim,
  type ClaimOutcome,
} from './idempotency.service.js';
export type { IdempotencyOwner } from './idempotency.repository.js';
