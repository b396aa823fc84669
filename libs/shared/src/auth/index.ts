export {
  AuthService,
  INVALID_CREDENTIALS,
  ACCOUNT_NOT_ACTIVE,
  INVALID_CURRENT_PASSWORD,
  normalizeEmail,
  principalOf,
  sessionVersionOf,
  type LoginResult,
} from './auth.service.js';
export {
  TokenService,
  type AccessTokenPayload,
  type RefreshTokenPayload,
  type TokenPair,
  type TokenType,
} from './tokens.js';
