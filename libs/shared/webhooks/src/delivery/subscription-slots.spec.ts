import { SubscriptionSlots, type SlotDecision } from './subscription-slots.js';

function slotsWithClock(perSlowSubscription = 2, attemptTimeoutMs = 10_000) {
  let now = 0;
  const slots = new SubscriptionSlots({ perSlowSubscription, attemptTimeoutMs, now: () => now, random: () => 0.5 });
  const advance = (ms: number) => void (now += ms);
  /** One attempt of the subscription that took `ms`. */
  const attempt = (subscriptionId: string, ms: number) => {
    const slot = taken(slots.take(subscriptionId));
    advance(ms);
    slot.release();
  };
  return { slots, attempt };
}

function taken(decision: SlotDecision): { release(): void } {
  if (!decision.taken) throw new Error(`expected a slot, was told to wait ${decision.retryInMs} ms`);
  return decision;
}

describe('slots per subscription of a webhook worker', () => {
  it('when a subscriber answers fast, its deliveries are never capped', () => {
    const { slots, attempt } = slotsWithClock(2);
    attempt('fast', 20);

    const running = Array.from({ length: 50 }, () => slots.take('fast'));

    expect(running.every((decision) => decision.taken)).toBe(true);
    expect(slots.runningOf('fast')).toBe(50);
  });

  it('when a subscriber turns slow, it gets no more than its share and the rest wait about one of its attempts', () => {
    const { slots, attempt } = slotsWithClock(2, 10_000);
    attempt('slow', 10_000); // an attempt that ran into the timeout

    const first = slots.take('slow');
    const second = slots.take('slow');
    const third = slots.take('slow');

    expect([first.taken, second.taken, third.taken]).toEqual([true, true, false]);
    expect(third).toEqual({ taken: false, retryInMs: 10_000 }); // one typical attempt, capped at the timeout
    // Other subscriptions are not affected by the slow one.
    expect(slots.take('other').taken).toBe(true);
  });

  it('when a slow subscriber frees a slot, the next delivery takes it; a slot given back twice counts once', () => {
    const { slots, attempt } = slotsWithClock(1, 2_000);
    attempt('slow', 2_000);
    const running = taken(slots.take('slow'));
    expect(slots.take('slow').taken).toBe(false);

    running.release();
    running.release();

    expect(slots.runningOf('slow')).toBe(0);
    expect(slots.take('slow').taken).toBe(true);
    expect(slots.take('slow').taken).toBe(false);
  });

  it('when a slow subscriber recovers, the cap lifts as its typical attempt time falls', () => {
    const { slots, attempt } = slotsWithClock(1, 10_000);
    attempt('sub', 10_000);

    for (let quick = 0; quick < 20; quick += 1) attempt('sub', 10);

    expect([slots.take('sub').taken, slots.take('sub').taken, slots.take('sub').taken]).toEqual([true, true, true]);
  });

  it('counts a subscriber as slow at 1 s, or at half the timeout when that is shorter', () => {
    const long = slotsWithClock(1, 10_000);
    long.attempt('sub', 1_000);
    taken(long.slots.take('sub'));
    expect(long.slots.take('sub').taken).toBe(false);

    const short = slotsWithClock(1, 600);
    short.attempt('sub', 299);
    taken(short.slots.take('sub'));
    expect(short.slots.take('sub').taken).toBe(true);
  });
});
