/** Shapes of the `/api/v1` answers the portal reads. Dates arrive as ISO strings. */
export type Role = 'admin' | 'manager' | 'supervisor' | 'operator' | 'viewer';

export type AdminModule =
  'users' | 'warehouses' | 'api-keys' | 'webhooks' | 'inbound' | 'orders' | 'inventory' | 'audit';

/** The claims of an access token: who is signed in and what they may do. */
export interface Principal {
  sub: string;
  email: string;
  role: Role;
  tenantId: string | null;
  adminModules: string[];
  adminModulesWrite: string[];
  exp: number;
}

export interface PublicUser {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  role: Role;
  language: string;
  tenantId: string | null;
  adminModules: string[];
  adminModulesWrite: string[];
}

export interface Tenant {
  id: string;
  code: string;
  name: string;
}

export interface ApiKey {
  id: string;
  name: string;
  description: string;
  scopes: string[];
  tenantId: string | null;
  expiresAt: string | null;
  ipWhitelist: string[];
  allowedOrigins: string[];
  rateLimitPerMinute: number;
  active: boolean;
  keyPrefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  /** Expires within 14 days and has not expired yet. */
  expiresSoon: boolean;
  /** When the raw key was last rolled; null if never. */
  rolledAt: string | null;
  /** The raw key before the last roll, while its grace period lasts: it still works until expiresAt. */
  previousKey: { keyPrefix: string; expiresAt: string } | null;
}

export interface CreatedApiKey extends ApiKey {
  rawKey: string;
}

export interface ApiKeyInput {
  name: string;
  description: string;
  scopes: string[];
  tenantId?: string | null;
  expiresAt: string | null;
  ipWhitelist: string[];
  allowedOrigins: string[];
  rateLimitPerMinute: number | null;
}

export interface RequestLogEntry {
  endpoint: string;
  method: string;
  ip: string | null;
  origin: string | null;
  statusCode: number;
  responseTimeMs: number;
  createdAt: string;
}

/** One bucket of a key's traffic: requests and error answers (status 400 and above) in it. */
export interface TrafficPoint {
  at: string;
  requests: number;
  errors: number;
}

export interface ApiKeyStats {
  requests7d: number;
  requests24h: number;
  errorRate: number;
  avgResponseTimeMs: number;
  recentRequests: RequestLogEntry[];
  hourly: TrafficPoint[];
  daily: TrafficPoint[];
}

export interface AuditEntry {
  id: string;
  tenantId: string | null;
  action: string;
  entityType: string;
  entityId: string;
  actorUserId: string | null;
  /** The actor's e-mail as it is now; null for a change no user made. */
  actorEmail: string | null;
  changes: Record<string, unknown>;
  createdAt: string;
}

export interface WebhookSubscription {
  id: string;
  tenantId: string | null;
  url: string;
  events: string[];
  description: string;
  /** A MongoDB-style query over the event data; null: every event. */
  filter: Record<string, unknown> | null;
  /** The most deliveries per second; null: no limit. */
  maxDeliveriesPerSecond: number | null;
  /** One document's events go out one at a time, in sequence order. */
  ordered: boolean;
  active: boolean;
  /** Why the service disabled it (410 Gone, failing too long); null when active or disabled by hand. */
  disabledReason: string | null;
  /** When the service disabled it; null otherwise. */
  disabledAt: string | null;
  /** The first failed attempt with no success since; null while deliveries succeed. */
  failingSince: string | null;
  secretRotatedAt: string | null;
  /** Until when the secret before the last rotation still signs beside the current one. */
  previousSecretExpiresAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface UserRecord extends PublicUser {
  status: 'active' | 'inactive' | 'locked';
  failedLoginCount: number;
  lastLoginAt: string | null;
  createdAt: string;
  updatedAt: string;
  /** Whether the signed-in user may change, disable, enable or unlock this user (the API decides). */
  canManage: boolean;
  /** Whether the signed-in user may set this user's password and e-mail (admins, never for themselves). */
  canSetCredentials: boolean;
}

export interface Overview {
  traffic: {
    requests24h: number;
    errors24h: number;
    errorRate: number;
    activeKeys: number;
    busiestKeys: Array<{ id: string; name: string; keyPrefix: string; requests24h: number; errors24h: number }>;
  } | null;
  webhooks: {
    subscriptions: number;
    failingSubscriptions: Array<{
      id: string;
      url: string;
      active: boolean;
      disabledReason: string | null;
      failed24h: number;
      lastError: string | null;
      lastStatusCode: number | null;
      lastFailureAt: string | null;
    }>;
  } | null;
  queues: Array<{ name: string; waiting: number; active: number; delayed: number; failed: number }> | null;
}
