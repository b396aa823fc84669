/** An API key as the admin API returns it (CONTRACT.md section 3). `keyHash` never leaves the database. */
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
}

/** Scopes with a defined meaning; other labels (e.g. `orders`) are stored and shown but grant nothing. */
export type ApiKeyScope = 'read' | 'write' | 'admin';

export function hasScope(principal: Pick<ApiKeyPrincipal, 'scopes'>, required: ApiKeyScope): boolean {
  return principal.scopes.includes('admin') || principal.scopes.includes(required);
}
