import type { ApiKeyPrincipal } from './api-key.types.js';
import type { ApiKeysRepository } from './api-keys.repository.js';
import { hashKey } from './key-format.js';
import { IpWhitelist, OriginList } from './network-rules.js';

/** A key as the guard holds it: the stored principal plus its rules compiled once. */
export interface VerifiedKey {
  principal: ApiKeyPrincipal;
  ipWhitelist: IpWhitelist | null;
  allowedOrigins: OriginList | null;
}

interface CacheEntry {
  key: VerifiedKey | null;
  loadedAt: number;
}

export interface ApiKeyVerifierOptions {
  /**
   * How long a looked-up key is trusted without asking the database. Kept well under a second so a
   * revocation reaches every replica within 1 s even if its invalidation message is lost.
   */
  ttlMs: number;
  maxEntries: number;
}

/**
 * The guard's look-up of a key with a short in-process cache keyed by the key's hash.
 * Concurrent misses for one key share one database read; `invalidate` (called on this replica's own
 * changes and on every other replica's, through pub/sub) drops the key at once, and a read that was in
 * flight during an invalidation is not cached.
 */
export class ApiKeyVerifier {
  private readonly cache = new Map<string, CacheEntry>();
  /** A key has two hashes while a roll's grace period lasts (its current and its previous raw key). */
  private readonly hashesById = new Map<string, Set<string>>();
  private readonly inFlight = new Map<string, Promise<VerifiedKey | null>>();
  private generation = 0;

  constructor(
    private readonly repository: Pick<ApiKeysRepository, 'findPrincipalByHash'>,
    private readonly options: ApiKeyVerifierOptions,
  ) {}

  /** The stored key for a well-formed raw key, or null when there is none. Active/expiry are the caller's to check. */
  async lookup(rawKey: string, now = Date.now()): Promise<VerifiedKey | null> {
    return this.lookupHash(hashKey(rawKey), now);
  }

  /** `lookup` by the key's hash, for a caller that hashed the raw key already (the guard, once per request). */
  async lookupHash(hash: string, now = Date.now()): Promise<VerifiedKey | null> {
    const fresh = this.fresh(hash, now);
    if (fresh) return fresh;
    const pending = this.inFlight.get(hash);
    if (pending) return pending;
    const load = this.load(hash).finally(() => this.inFlight.delete(hash));
    this.inFlight.set(hash, load);
    return load;
  }

  /** The key while its cache entry is fresh, without waiting a microtask: the guard's common case. */
  fresh(hash: string, now = Date.now()): VerifiedKey | undefined {
    const cached = this.cache.get(hash);
    return cached && now - cached.loadedAt < this.options.ttlMs ? (cached.key ?? undefined) : undefined;
  }

  /**
   * True when the key was found before and not changed since: its cache entry is fresh, or only due for
   * a refresh, or a look-up of it is in flight. Such a key needs no failed-lookup check; when its entry
   * expires, the requests that meet it share one database read instead of each asking Redis first.
   */
  isCached(hash: string): boolean {
    return this.cache.has(hash) || this.inFlight.has(hash);
  }

  invalidate(keyId: string): void {
    this.generation++;
    for (const hash of this.hashesById.get(keyId) ?? []) this.cache.delete(hash);
    this.hashesById.delete(keyId);
  }

  invalidateAll(): void {
    this.generation++;
    this.cache.clear();
    this.hashesById.clear();
  }

  private async load(hash: string): Promise<VerifiedKey | null> {
    const generation = this.generation;
    const loadedAt = Date.now();
    const principal = await this.repository.findPrincipalByHash(hash);
    const key = principal ? compile(principal) : null;
    // Unknown keys are not cached: a key created a moment later must work at once.
    if (key && generation === this.generation) {
      if (this.cache.size >= this.options.maxEntries) this.evictOldest();
      this.cache.set(hash, { key, loadedAt });
      const hashes = this.hashesById.get(key.principal.id) ?? new Set<string>();
      this.hashesById.set(key.principal.id, hashes.add(hash));
    }
    return key;
  }

  private evictOldest(): void {
    const oldest = this.cache.keys().next();
    if (!oldest.done) this.cache.delete(oldest.value);
  }
}

function compile(principal: ApiKeyPrincipal): VerifiedKey {
  return {
    principal,
    ipWhitelist: principal.ipWhitelist.length > 0 ? new IpWhitelist(principal.ipWhitelist) : null,
    allowedOrigins: principal.allowedOrigins.length > 0 ? new OriginList(principal.allowedOrigins) : null,
  };
}
