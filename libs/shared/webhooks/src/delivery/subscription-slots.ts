export type SlotDecision = { taken: true; release(): void } | { taken: false; retryInMs: number };

export interface SubscriptionSlotsOptions {
  /** Deliveries of one slow subscription run at once in this process. */
  perSlowSubscription: number;
  /** The attempt timeout: a subscription is slow once its attempts typically take half of it (at most 1 s). */
  attemptTimeoutMs: number;
  random?: () => number;
  now?: () => number;
}

/** Weight of the newest attempt in a subscription's typical attempt time. */
const SMOOTHING = 0.3;
/** A subscriber whose attempts typically take this long (or half the timeout, if less) is slow. */
const SLOW_ATTEMPT_MS = 1_000;

/**
 * How many deliveries of each slow subscription one worker process runs at once. Without a cap, a
 * subscriber that hangs until the timeout takes every slot of the worker while its backlog lasts, and
 * every other subscriber waits behind it. Fast subscriptions are not capped: one busy, healthy subscriber
 * may use the whole worker. A subscription counts as slow once its attempts typically (a moving average)
 * take 1 s or half the attempt timeout; a delivery over its share does not take a slot but asks again after
 * about one typical attempt of its subscriber (at most the timeout), with jitter, so deferred deliveries
 * neither spin nor come back all at once.
 */
export class SubscriptionSlots {
  private readonly running = new Map<string, number>();
  private readonly typicalMs = new Map<string, number>();
  private readonly slowMs: number;
  private readonly random: () => number;
  private readonly now: () => number;

  constructor(private readonly options: SubscriptionSlotsOptions) {
    this.slowMs = Math.min(SLOW_ATTEMPT_MS, options.attemptTimeoutMs / 2);
    this.random = options.random ?? Math.random;
    this.now = options.now ?? Date.now;
  }

  take(subscriptionId: string): SlotDecision {
    const running = this.running.get(subscriptionId) ?? 0;
    const typical = this.typicalMs.get(subscriptionId);
    if (typical !== undefined && typical >= this.slowMs && running >= this.options.perSlowSubscription) {
      const wait = Math.min(this.options.attemptTimeoutMs, typical);
      return { taken: false, retryInMs: Math.round(wait * (0.5 + this.random())) };
    }
    this.running.set(subscriptionId, running + 1);
    const started = this.now();
    let released = false;
    return {
      taken: true,
      release: () => {
        if (released) return;
        released = true;
        this.learn(subscriptionId, this.now() - started);
        const left = (this.running.get(subscriptionId) ?? 1) - 1;
        if (left > 0) this.running.set(subscriptionId, left);
        else this.running.delete(subscriptionId);
      },
    };
  }

  /** Deliveries of the subscription running now in this process. */
  runningOf(subscriptionId: string): number {
    return this.running.get(subscriptionId) ?? 0;
  }

  private learn(subscriptionId: string, tookMs: number): void {
    const typical = this.typicalMs.get(subscriptionId);
    this.typicalMs.set(subscriptionId, typical === undefined ? tookMs : typical + SMOOTHING * (tookMs - typical));
  }
}
