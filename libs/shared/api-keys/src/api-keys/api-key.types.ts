/** An API key as the admin API returns it. `keyHash` never leaves the database. */
export interface ApiKeyRecord {
  id: string;
  name: string;
  description: string;
  scopes: string[];
  tenantId: string | null;
  expiresAt: Date | null;
  ipWhitelist: string[];
  allowedOrigins: string[];
  rateLimitPerMinute: number;
  active: boolean;
  keyPrefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  /** True when the key expires within EXPIRY_WARNING_DAYS (14) and has not expired yet. */
  expiresSoon: boolean;
  /** When the raw key was last rolled; null if never. */
  rolledAt: Date | null;
  /** The raw key before the last roll, while its grace period lasts: it still authenticates until expiresAt. */
  previousKey: { keyPrefix: string; expiresAt: string } | null;
  /** The dated API version its calls are served in unless a call sends `Wms-Version`. */
  apiVersion: string;
}

export interface CreatedApiKey extends ApiKeyRecord {
  /** Returned once, in the creation answer; only its SHA-256 is stored. */
  rawKey: string;
}

export interface ApiKeyInput {
  name: string;
  description?: string;
  scopes: string[];
  tenantId?: string | null;
  expiresAt?: Date | null;
  ipWhitelist?: string[];
  allowedOrigins?: string[];
  rateLimitPerMinute?: number;
  /** Default: the deployment's API_DEFAULT_VERSION. */
  apiVersion?: string;
}

/** What the guard attaches to an authenticated integration request. */
export interface ApiKeyPrincipal {
  id: string;
  name: string;
  tenantId: string | null;
  scopes: string[];
  expiresAt: Date | null;
  active: boolean;
  ipWhitelist: string[];
  allowedOrigins: string[];
  rateLimitPerMinute: number;
  apiVersion: string;
}

/** Scopes with a defined meaning; other labels (e.g. `orders`) are stored and shown but grant nothing. */
export type ApiKeyScope = 'read' | 'write' | 'admin';

export function hasScope(principal: Pick<ApiKeyPrincipal, 'scopes'>, required: ApiKeyScope): boolean {
  return principal.scopes.includes('admin') || principal.scopes.includes(required);
}
