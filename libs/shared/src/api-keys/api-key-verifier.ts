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
 * The guard's look-up (seed 5.2 step 2) with a short in-process cache keyed by the key's hash.
 * Concurrent misses for one key share one database read; `invalidate` (called on this replica's own
 * changes and on every other replica's, through pub/sub) drops the key at once, and a read that was in
 * flight during an invalidation is not cached.
 */
export class ApiKeyVerifier {
  private readonly cache = new Map<string, CacheEntry>();
  private readonly hashById = new Map<string, string>();
  private readonly inFlight = new Map<string, Promise<VerifiedKey | null>>();
  private generation = 0;

  constructor(
    private readonly repository: Pick<ApiKeysRepository, 'findPrincipalByHash'>,
    private readonly options: ApiKeyVerifierOptions,
  ) {}

  /** The stored key for a well-formed raw key, or null when there is none. Active/expiry are the caller's to check. */
  async lookup(rawKey: string, now = Date.now()): Promise<VerifiedKey | null> {
    const hash = hashKey(rawKey);
    const cached = this.cache.get(hash);
    if (cached && now - cached.loadedAt < this.options.ttlMs) return cached.key;
    const pending = this.inFlight.get(hash);
    if (pending) return pending;
    const load = this.load(hash).finally(() => this.inFlight.delete(hash));
    this.inFlight.set(hash, load);
    return load;
  }

  /** True when a fresh cache entry exists: such a request costs no look-up at all. */
  isCached(rawKey: string, now = Date.now()): boolean {
    const cached = this.cache.get(hashKey(rawKey));
    return !!cached && now - cached.loadedAt < this.options.ttlMs;
  }

  invalidate(keyId: string): void {
    this.generation++;
    const hash = this.hashById.get(keyId);
    if (hash) this.cache.delete(hash);
    this.hashById.delete(keyId);
  }

  invalidateAll(): void {
    this.generation++;
    this.cache.clear();
    this.hashById.clear();
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
      this.hashById.set(key.principal.id, hash);
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
