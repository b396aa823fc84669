import { randomUUID } from 'node:crypto';
import type { RedisClient } from '@wms/platform';
import type { DeliveryRepository, DeliveryWork } from './delivery.repository.js';

/**
 * A subscription's pace over every worker, in two parts, with Redis' clock as the only clock:
 * - a schedule of send times (GCRA): KEYS[1] holds the next free time, one interval (1000 / rate ms) after the
 *   last given. A delivery that finds that time passed may go now; any other is given the next free time,
 *   kept for it in KEYS[2] (by delivery id), and waits as a delayed job until then. A burst of a thousand is
 *   spread out at one script call each, not a thousand retries of the same check.
 * - a cap on what is actually sent: KEYS[3] logs the sends of the last second; a delivery that may go is
 *   sent only while fewer than `rate` went in that second. A job woken late (a busy worker) cannot make a
 *   bunch of sends: over the cap it is given the time the oldest logged send leaves the second. Once the
 *   answer is in, the send is logged again at that time (ANSWERED_SCRIPT), so it counts from its admission
 *   until a second after its answer: every request a receiver takes in within any one second was in the
 *   log together at that second's end, so a receiver sees at most `rate` a second however long a busy
 *   worker held admitted requests before sending them.
 *
 * ARGV: interval ms, rate, delivery id, the send's entry in the log. Returns the milliseconds to wait ("0": go now).
 */
const PACE_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local interval = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local id = ARGV[3]
local held = redis.call('HGET', KEYS[2], id)
if held then
  held = tonumber(held)
  if held > now then return tostring(held - now) end
  redis.call('HDEL', KEYS[2], id)
else
  local slot = math.max(tonumber(redis.call('GET', KEYS[1]) or '0'), now)
  redis.call('SET', KEYS[1], tostring(slot + interval), 'PX', math.ceil(slot + interval - now) + 1000)
  if slot > now then
    redis.call('HSET', KEYS[2], id, tostring(slot))
    redis.call('PEXPIRE', KEYS[2], math.ceil(slot - now) + 600000)
    return tostring(slot - now)
  end
end
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now - 1000)
if redis.call('ZCARD', KEYS[3]) < rate then
  redis.call('ZADD', KEYS[3], now, ARGV[4])
  redis.call('PEXPIRE', KEYS[3], 2000)
  return '0'
end
local oldest = redis.call('ZRANGE', KEYS[3], 0, 0, 'WITHSCORES')
local free = tonumber(oldest[2]) + 1000
redis.call('HSET', KEYS[2], id, tostring(free))
redis.call('PEXPIRE', KEYS[2], math.ceil(free - now) + 600000)
return tostring(free - now)
`;

/** A send's answer is in: its entry in the log of sends (KEYS[1]) moves to now, Redis' clock. ARGV: the entry. */
const ANSWERED_SCRIPT = `
local t = redis.call('TIME')
redis.call('ZADD', KEYS[1], tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000, ARGV[1])
redis.call('PEXPIRE', KEYS[1], 2000)
return 0
`;

type PaceRedis = RedisClient & {
  wmsWebhookPace(
    nextKey: string,
    heldKey: string,
    sentKey: string,
    intervalMs: number,
    rate: number,
    deliveryId: string,
    entry: string,
  ): Promise<string>;
  wmsWebhookAnswered(sentKey: string, entry: string): Promise<number>;
};

/** What the pace said of one attempt: wait, or go now and say when its answer is in. */
export type Pace = { waitMs: number } | { waitMs: 0; answered(): Promise<void> };

/** How soon an ordered delivery looks again for the earlier one it waits for, at least and at most. */
const ORDER_RECHECK_MIN_MS = 100;
const ORDER_RECHECK_MAX_MS = 60_000;

/**
 * The subscriber's controls, asked before each attempt (after the checks that can fail a delivery, before it
 * takes a sending turn): an ordered subscription's delivery waits while an earlier delivery of the same
 * document is pending; a subscription with `maxDeliveriesPerSecond` is kept to that pace over every worker.
 * A delivery that must wait is given back as a delayed job (outcome `deferred`): no worker sleeps, so a
 * limited or held-back subscription never holds up the others.
 */
export class SubscriberGate {
  private readonly redis: PaceRedis;

  constructor(
    redis: RedisClient,
    private readonly keyPrefix: string,
    private readonly repository: Pick<DeliveryRepository, 'earlierPending'>,
  ) {
    redis.defineCommand('wmsWebhookPace', { numberOfKeys: 3, lua: PACE_SCRIPT });
    redis.defineCommand('wmsWebhookAnswered', { numberOfKeys: 1, lua: ANSWERED_SCRIPT });
    this.redis = redis as PaceRedis;
  }

  /** For an ordered subscription: milliseconds to wait for an earlier pending delivery of the document, or 0. */
  async heldBack(work: DeliveryWork): Promise<number> {
    if (!work.ordered || work.documentKey === null || work.documentSequence === null) return 0;
    const earlier = await this.repository.earlierPending(work);
    if (!earlier) return 0;
    const until = (earlier.nextAttemptAt?.getTime() ?? 0) - Date.now() + ORDER_RECHECK_MIN_MS;
    return Math.min(ORDER_RECHECK_MAX_MS, Math.max(ORDER_RECHECK_MIN_MS, until));
  }

  /**
   * For a subscription with `maxDeliveriesPerSecond`: the milliseconds until its turn to be sent, or go now
   * (the send is counted; `answered` once its answer is in or it failed). Null for an unlimited one. Asked
   * once the attempt holds its sending turn, right before sending.
   */
  async paced(work: DeliveryWork): Promise<Pace | null> {
    const rate = work.maxDeliveriesPerSecond;
    if (!rate) return null;
    // The subscription id as a hash tag: on a cluster the keys share a slot.
    const base = `${this.keyPrefix}:webhook-pace:{${work.subscriptionId}}`;
    const sentKey = `${base}:sent`;
    const entry = `${work.id}:${randomUUID()}`;
    const wait = Number(
      await this.redis.wmsWebhookPace(`${base}:next`, `${base}:held`, sentKey, 1000 / rate, rate, work.id, entry),
    );
    if (wait > 0) return { waitMs: Math.ceil(wait) };
    return {
      waitMs: 0,
      answered: async () => {
        await this.redis.wmsWebhookAnswered(sentKey, entry);
      },
    };
  }
}
