import { changedFields, TenantsRepository, type AuditService } from '@wms/identity';
import type { Database } from '@wms/platform';
import { AppError, DEFAULT_API_VERSION, type ApiVersion, unitOfWork } from '@wms/platform';
import type { CursorPosition, ListPage } from '@wms/platform';
import type { ApiKeyInput, ApiKeyPrincipal, ApiKeyRecord, CreatedApiKey } from './api-key.types.js';
import { ApiKeysRepository, type ApiKeyStats, type EditableField } from './api-keys.repository.js';
import { displayPrefix, generateRawKey, hashKey, isWellFormedKey } from './key-format.js';
import { keyTrafficOf, type KeyTraffic } from './traffic.js';

export const MISSING_API_KEY = 'Missing API key';
export const INVALID_API_KEY = 'Invalid, revoked, or expired API key';
export const MISSING_SCOPE = 'API key missing required scope(s)';

/** A page of the keys list when the query names no limit. */
const ADMIN_LIST_DEFAULT_LIMIT = 100;

/** A key's stats show its latest 50 requests. */
export const RECENT_REQUESTS_SHOWN = 50;
export const API_KEY_ENTITY = 'api_key';

export type ApiKeyUpdate = Partial<Omit<ApiKeyInput, 'tenantId'>>;

/** Who acts, and which tenant they are bound to (null: cross-tenant, sees every key). */
export interface ApiKeyActor {
  userId: string | null;
  tenantId: string | null;
}

type ChangeListener = (keyId: string) => void;

/** What an audit entry keeps of a new key: everything but secrets and server-set fields. */
function creationSnapshot(record: ApiKeyRecord): Record<string, unknown> {
  const {
    name,
    description,
    scopes,
    tenantId,
    expiresAt,
    ipWhitelist,
    allowedOrigins,
    rateLimitPerMinute,
    keyPrefix,
    apiVersion,
  } = record;
  return {
    name,
    description,
    scopes,
    tenantId,
    expiresAt,
    ipWhitelist,
    allowedOrigins,
    rateLimitPerMinute,
    keyPrefix,
    apiVersion,
  };
}

export class ApiKeysService {
  readonly repository: ApiKeysRepository;
  private readonly tenants: TenantsRepository;
  private readonly listeners: ChangeListener[] = [];

  /**
   * `defaultApiVersion`: the version a key created without `apiVersion` is pinned to (the deployment's
   * API_DEFAULT_VERSION).
   */
  constructor(
    private readonly db: Database,
    private readonly audit: AuditService,
    private readonly defaultApiVersion: ApiVersion = DEFAULT_API_VERSION,
  ) {
    this.repository = new ApiKeysRepository(db);
    this.tenants = new TenantsRepository(db);
  }

  /** Called after every committed change of a key (the gateway invalidates its verification caches). */
  onChange(listener: ChangeListener): void {
    this.listeners.push(listener);
  }

  async create(input: ApiKeyInput, actorUserId: string | null): Promise<CreatedApiKey> {
    const rawKey = generateRawKey();
    const tenantId = input.tenantId ?? null;
    if (tenantId) await this.requireTenant(tenantId);
    const record = await unitOfWork(this.db, async (transaction) => {
      const created = await this.repository.insert(
        {
          name: input.name,
          description: input.description ?? '',
          scopes: input.scopes,
          tenantId,
          expiresAt: input.expiresAt ?? null,
          ipWhitelist: input.ipWhitelist ?? [],
          allowedOrigins: input.allowedOrigins ?? [],
          rateLimitPerMinute: input.rateLimitPerMinute ?? 0,
          keyHash: hashKey(rawKey),
          keyPrefix: displayPrefix(rawKey),
          createdBy: actorUserId,
          apiVersion: input.apiVersion ?? this.defaultApiVersion,
        },
        transaction,
      );
      await this.audit.record(
        {
          action: 'api_key.created',
          entityType: API_KEY_ENTITY,
          entityId: created.id,
          tenantId,
          actorUserId,
          changes: creationSnapshot(created),
        },
        transaction,
      );
      return created;
    });
    return { ...record, rawKey };
  }

  /**
   * Newest first, a page at a time; `expiringWithinSeconds`: only keys (or previous raw keys) that stop working
   * within that time.
   */
  async page(
    actor: ApiKeyActor,
    query: { tenantId?: string | null; expiringWithinSeconds?: number | null; limit?: number; cursor?: CursorPosition },
  ): Promise<ListPage<ApiKeyRecord>> {
    return this.repository.page({
      tenantId: actor.tenantId ?? query.tenantId ?? null,
      expiringWithinSeconds: query.expiringWithinSeconds ?? null,
      limit: query.limit ?? ADMIN_LIST_DEFAULT_LIMIT,
      cursor: query.cursor,
    });
  }

  /** The first page of keys (see page). */
  async list(
    actor: ApiKeyActor,
    tenantFilter: string | null = null,
    expiringWithinSeconds: number | null = null,
  ): Promise<ApiKeyRecord[]> {
    return (await this.page(actor, { tenantId: tenantFilter, expiringWithinSeconds })).data;
  }

  /**
   * Issues a new raw key for the same key (same id, settings, stats and rate limit), returned this once.
   * The previous raw key keeps working for `graceSeconds` (0: it stops at once). Every replica drops
   * both from its cache when the change is committed.
   */
  async roll(id: string, graceSeconds: number, actor: ApiKeyActor): Promise<CreatedApiKey> {
    await this.get(id, actor);
    const rawKey = generateRawKey();
    const record = await unitOfWork(this.db, async (transaction) => {
      const current = (await this.repository.findById(id, transaction))!;
      if (!current.active)
        throw AppError.conflict('INVALID_STATE', 'API key is revoked; activate it before rolling it');
      if (current.expiresAt && new Date(current.expiresAt) <= new Date())
        throw AppError.conflict('INVALID_STATE', 'API key has expired; give it a later expiresAt before rolling it');
      const rolled = await this.repository.roll(
        id,
        { keyHash: hashKey(rawKey), keyPrefix: displayPrefix(rawKey) },
        graceSeconds,
        transaction,
      );
      await this.audit.record(
        {
          action: 'api_key.rolled',
          entityType: API_KEY_ENTITY,
          entityId: id,
          tenantId: current.tenantId,
          actorUserId: actor.userId,
          changes: {
            keyPrefix: { from: current.keyPrefix, to: rolled.keyPrefix },
            graceSeconds,
            previousKeyExpiresAt: rolled.previousKey?.expiresAt ?? null,
            endedPreviousKey: current.previousKey?.keyPrefix ?? null,
          },
        },
        transaction,
      );
      return rolled;
    });
    this.changed(id);
    return { ...record, rawKey };
  }

  /** Ends the previous raw key's grace period at once (it stops on every replica); the current key is untouched. */
  async revokePrevious(id: string, actor: ApiKeyActor): Promise<ApiKeyRecord> {
    const before = await this.get(id, actor);
    const ended = await unitOfWork(this.db, async (transaction) => {
      await this.repository.findById(id, transaction);
      if (!(await this.repository.revokePrevious(id, transaction))) return false;
      await this.audit.record(
        {
          action: 'api_key.previous_revoked',
          entityType: API_KEY_ENTITY,
          entityId: id,
          tenantId: before.tenantId,
          actorUserId: actor.userId,
          changes: { previousKey: { from: before.previousKey, to: null } },
        },
        transaction,
      );
      return true;
    });
    if (ended) this.changed(id);
    return this.get(id, actor);
  }

  /** Another tenant's key answers exactly as a missing one. */
  async get(id: string, actor: ApiKeyActor): Promise<ApiKeyRecord> {
    const record = await this.repository.findById(id);
    if (!record || (actor.tenantId && record.tenantId !== actor.tenantId))
      throw AppError.notFound(`API key ${id} not found`);
    return record;
  }

  async update(id: string, input: ApiKeyUpdate, actor: ApiKeyActor): Promise<ApiKeyRecord> {
    const changes: Partial<Pick<ApiKeyRecord, EditableField>> = {};
    for (const [field, value] of Object.entries(input) as Array<[EditableField, unknown]>) {
      if (value === undefined) continue;
      // An empty rate limit means unlimited, stored as 0.
      (changes as Record<string, unknown>)[field] = field === 'rateLimitPerMinute' && value === null ? 0 : value;
    }
    return this.change(id, actor, 'api_key.updated', changes);
  }

  async revoke(id: string, actor: ApiKeyActor): Promise<ApiKeyRecord> {
    return this.change(id, actor, 'api_key.revoked', { active: false });
  }

  async activate(id: string, actor: ApiKeyActor): Promise<ApiKeyRecord> {
    return this.change(id, actor, 'api_key.activated', { active: true });
  }

  /**
   * The seed's figures plus requests and errors per hour (24 h) and per day (7 d) for a chart, all from the
   * hourly rollups; the latest requests from the log's newest partitions.
   */
  async stats(id: string, actor: ApiKeyActor): Promise<ApiKeyStats & KeyTraffic> {
    await this.get(id, actor);
    const [{ nowHour, hours }, recentRequests] = await Promise.all([
      this.repository.requestLogs.keyRollups(id),
      this.repository.requestLogs.recent(id, RECENT_REQUESTS_SHOWN),
    ]);
    const { hourly, daily, ...totals } = keyTrafficOf(nowHour, hours);
    return { ...totals, recentRequests, hourly, daily };
  }

  /**
   * Applies what actually differs under a row lock and audits it with before and after values; a change
   * that changes nothing (revoking a revoked key) writes nothing and audits nothing.
   */
  private async change(
    id: string,
    actor: ApiKeyActor,
    action: string,
    wanted: Partial<Pick<ApiKeyRecord, EditableField>>,
  ): Promise<ApiKeyRecord> {
    await this.get(id, actor);
    const { record, changed } = await unitOfWork(this.db, async (transaction) => {
      const current = (await this.repository.findById(id, transaction))!;
      const diff = changedFields(current, wanted, Object.keys(wanted) as EditableField[]);
      if (Object.keys(diff).length === 0) return { record: current, changed: false };
      const effective = Object.fromEntries(
        Object.keys(diff).map((field) => [field, wanted[field as EditableField]]),
      ) as Partial<Pick<ApiKeyRecord, EditableField>>;
      const updated = await this.repository.update(id, effective, transaction);
      await this.audit.record(
        {
          action,
          entityType: API_KEY_ENTITY,
          entityId: id,
          tenantId: current.tenantId,
          actorUserId: actor.userId,
          changes: diff,
        },
        transaction,
      );
      return { record: updated, changed: true };
    });
    if (changed) this.changed(id);
    return record;
  }

  private changed(id: string): void {
    for (const listener of this.listeners) listener(id);
  }

  private async requireTenant(tenantId: string): Promise<void> {
    if (!(await this.tenants.exists(tenantId)))
      throw AppError.validation('Request validation failed', [
        { path: 'tenantId', message: `tenantId ${tenantId} does not exist` },
      ]);
  }

  /**
   * Looks a key up and checks it is usable, without a cache: a malformed key (bad prefix, length or checksum)
   * is refused without any look-up; an unknown, inactive or expired key gets the same 401.
   */
  async authenticate(rawKey: string, now = new Date()): Promise<ApiKeyPrincipal> {
    if (!isWellFormedKey(rawKey)) throw AppError.unauthorized(INVALID_API_KEY, 'INVALID_API_KEY');
    const principal = await this.repository.findPrincipalByHash(hashKey(rawKey));
    if (!isUsable(principal, now)) throw AppError.unauthorized(INVALID_API_KEY, 'INVALID_API_KEY');
    return principal;
  }
}

/** A key is usable when it exists, is active and has not expired. */
export function isUsable(principal: ApiKeyPrincipal | null, now = new Date()): principal is ApiKeyPrincipal {
  return !!principal && principal.active && !(principal.expiresAt && new Date(principal.expiresAt) <= now);
}
