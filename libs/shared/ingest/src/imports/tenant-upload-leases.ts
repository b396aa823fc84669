import { randomUUID } from 'node:crypto';
import { RedisDeadline, redisKey, type RedisClient } from '@wms/platform';

/**
 * How long a slot outlives its gateway's last renewal: a killed gateway's slots come back within this. Each
 * upload renews its own every third of it, so a live one never lapses.
 */
export const UPLOAD_LEASE_MS = 15_000;
const RENEW_EVERY_MS = UPLOAD_LEASE_MS / 3;
/** Redis answers in about a millisecond; an upload never waits longer than this for a slot. */
const REDIS_DEADLINE = { timeoutMs: 500, pauseMs: 1_000 };

/** Redis' own clock, in ms: one clock for every gateway's leases. */
const NOW = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/** Drops lapsed leases; takes one when fewer than ARGV[2] remain. 1: taken, 0: the tenant holds its share. */
const TAKE_SCRIPT = `${NOW}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1`;

/** Extends a lease still held (one that lapsed is not brought back). */
const RENEW_SCRIPT = `${NOW}
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`;

type ScriptRedis = RedisClient & {
  wmsTakeUploadLease(key: string, member: string, limit: number, leaseMs: number): Promise<number>;
  wmsRenewUploadLease(key: string, member: string, leaseMs: number): Promise<number>;
};

/** A tenant's hold on one of its upload slots across gateways. */
export interface UploadLease {
  release(): void;
}

/**
 * The upload slots of each tenant across every gateway: a sorted set per tenant in Redis, one member per
 * upload in flight, scored by when its lease lapses. A tenant holds at most `perTenant`, however many
 * gateways its uploads are spread over; a gateway killed mid-upload gives its slots back when their leases
 * lapse (UPLOAD_LEASE_MS), without anyone cleaning up.
 */
export class TenantUploadLeases {
  private readonly redis: ScriptRedis;
  private readonly deadline = new RedisDeadline(REDIS_DEADLINE);

  constructor(
    redis: RedisClient,
    private readonly prefix: string,
    private readonly perTenant: number,
  ) {
    redis.defineCommand('wmsTakeUploadLease', { numberOfKeys: 1, lua: TAKE_SCRIPT });
    redis.defineCommand('wmsRenewUploadLease', { numberOfKeys: 1, lua: RENEW_SCRIPT });
    this.redis = redis as ScriptRedis;
  }

  /** A lease, or null when the tenant holds its share already. Rejects when Redis does not answer. */
  async take(tenantId: string): Promise<UploadLease | null> {
    const key = redisKey(this.prefix, 'upload-slots', tenantId);
    const member = randomUUID();
    const taken = await this.deadline.run(() =>
      this.redis.wmsTakeUploadLease(key, member, this.perTenant, UPLOAD_LEASE_MS),
    );
    if (taken !== 1) return null;
    const renewal = setInterval(() => {
      // A missed renewal costs nothing while the lease runs; several missed, the slot lapses early.
      void this.redis.wmsRenewUploadLease(key, member, UPLOAD_LEASE_MS).catch(() => undefined);
    }, RENEW_EVERY_MS);
    renewal.unref();
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        clearInterval(renewal);
        // Not given back (Redis away): the lease lapses on its own.
        void this.redis.zrem(key, member).catch(() => undefined);
      },
    };
  }
}
