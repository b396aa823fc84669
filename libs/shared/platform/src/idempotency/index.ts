export {
  IdempotencyService,
  checkIdempotencyKey,
  inProgressError,
  mismatchError,
  type IdempotencyClaim,
  type ClaimOutcome,
} from './idempotency.service.js';
export type { IdempotencyOwner } from './idempotency.repository.js';
export {
  requestFingerprint,
  type FingerprintPart,
  type RequestFingerprint,
  type RequestMeaning,
} from './request-fingerprint.js';
