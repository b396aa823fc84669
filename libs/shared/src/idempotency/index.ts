export {
  IdempotencyService,
  requestFingerprint,
  checkIdempotencyKey,
  inProgressError,
  mismatchError,
  type IdempotencyClaim,
  type IdempotencyOwner,
  type ClaimOutcome,
} from './idempotency.service.js';
