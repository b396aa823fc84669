import type { Database } from '../db/models.js';
import { AppError } from '../errors/index.js';
import type { ApiKeyInput, ApiKeyPrincipal, CreatedApiKey } from './api-key.types.js';
import { ApiKeysRepository } from './api-keys.repository.js';
import { displayPrefix, generateRawKey, hashKey, isWellFormedKey } from './key-format.js';

export const MISSING_API_KEY = 'Missing API key';
export const INVALID_API_KEY = 'Invalid, revoked, or expired API key';
export const MISSING_SCOPE = 'API key missing required scope(s)';

export class ApiKeysService {
  readonly repository: ApiKeysRepository;

  constructor(private readonly db: Database) {
    this.repository = new ApiKeysRepository(db);
  }

  async create(input: ApiKeyInput, actorUserId: string | null): Promise<CreatedApiKey> {
    const rawKey = generateRawKey();
    const record = await this.repository.insert({
      name: input.name,
      description: input.description ?? '',
      scopes: input.scopes,
      tenantId: input.tenantId ?? null,
      expiresAt: input.expiresAt ?? null,
      ipWhitelist: input.ipWhitelist ?? [],
      allowedOrigins: input.allowedOrigins ?? [],
      rateLimitPerMinute: input.rateLimitPerMinute ?? 0,
      keyHash: hashKey(rawKey),
      keyPrefix: displayPrefix(rawKey),
      createdBy: actorUserId,
    });
    return { ...record, rawKey };
  }

  /**
   * Seed 5.2 steps 2 and 3: a malformed key (bad prefix, length or checksum) is refused without any
   * look-up; an unknown, inactive or expired key gets the same 401.
   */
  async authenticate(rawKey: string, now = new Date()): Promise<ApiKeyPrincipal> {
    if (!isWellFormedKey(rawKey)) throw AppError.unauthorized(INVALID_API_KEY, 'INVALID_API_KEY');
    const principal = await this.repository.findPrincipalByHash(hashKey(rawKey));
    if (!principal || !principal.active || (principal.expiresAt && principal.expiresAt <= now)) {
      throw AppError.unauthorized(INVALID_API_KEY, 'INVALID_API_KEY');
    }
    return principal;
  }
}
