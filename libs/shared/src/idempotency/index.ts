export {
  IdempotencyService,
  requestFingerprint,
  checkIdempotencyKey,
  inProgressError,
  mismatchError,
  type IdempotencyClaim,
  type ClaimOutcome,
} from './idempotency.service.js';
