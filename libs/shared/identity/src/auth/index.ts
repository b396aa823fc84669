export {
  AuthService,
  INVALID_CREDENTIALS,
  ACCOUNT_NOT_ACTIVE,
  INVALID_CURRENT_PASSWORD,
  principalOf,
  sessionVersionOf,
  type LoginResult,
} from './auth.service.js';
export { RefreshSessions, refreshTokenDigest, SESSION_ENDED, REFRESH_TOKEN_REUSED } from './refresh-sessions.js';
export { OperatorAccounts, oneTimePassword, type PasswordReset } from './operator-accounts.js';
export {
  TokenService,
  TOKEN_ISSUER,
  TOKEN_AUDIENCES,
  type IssuedPair,
  type AccessTokenPayload,
  type RefreshTokenPayload,
  type TokenPair,
  type TokenType,
} from './tokens.js';
export { AddressLocksRepository, ADDRESS_MEMORY_DAYS, addressDigest } from './address-locks.repository.js';
