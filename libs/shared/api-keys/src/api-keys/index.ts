export {
  ApiKeysService,
  isUsable,
  MISSING_API_KEY,
  INVALID_API_KEY,
  MISSING_SCOPE,
  RECENT_REQUESTS_SHOWN,
  API_KEY_ENTITY,
  type ApiKeyUpdate,
  type ApiKeyActor,
} from './api-keys.service.js';
export { ApiKeysRepository, EXPIRY_WARNING_DAYS, type ApiKeyStats } from './api-keys.repository.js';
export {
  RequestLogRepository,
  PartitionSession,
  partitionNameOf,
  type RequestLogEntry,
  type RecentRequest,
  type HourlyRollup,
  type OutcomeCount,
  type RefusedOutcome,
  type KeyTrafficRow,
  type DayPartition,
} from './request-log.repository.js';
export {
  RequestLogMaintenance,
  DEFAULT_REQUEST_LOG_RETENTION,
  utcDay,
  type RequestLogRetention,
  type MaintenanceResult,
} from './request-log-maintenance.js';
export {
  generateRawKey,
  isWellFormedKey,
  hashKey,
  displayPrefix,
  API_KEY_PREFIX,
  API_KEY_LENGTH,
  KEY_PREFIX_LENGTH,
} from './key-format.js';
export {
  hasScope,
  type ApiKeyRecord,
  type CreatedApiKey,
  type ApiKeyInput,
  type ApiKeyPrincipal,
  type ApiKeyScope,
} from './api-key.types.js';
export {
  createApiKeySchema,
  updateApiKeySchema,
  rollApiKeySchema,
  listApiKeysQuerySchema,
  MAX_ROLL_GRACE_SECONDS,
} from './api-key.schema.js';
export { ApiKeyVerifier, type VerifiedKey, type ApiKeyVerifierOptions } from './api-key-verifier.js';
export { ApiKeyInvalidationBus } from './api-key-invalidation.js';
export { ApiKeyRequestLog, DEFAULT_REQUEST_LOG_OPTIONS, type RequestLogOptions } from './request-log.js';
export { IpWhitelist, OriginList, canonicalOrigin, isIpOrCidr, normalizeIp } from './network-rules.js';
export { keyTrafficOf, type KeyTraffic, type KeyTotals, type TrafficPoint } from './traffic.js';
export { apiKeyRefusals } from './api-key.metrics.js';
