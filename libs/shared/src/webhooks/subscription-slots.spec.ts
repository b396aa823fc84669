import { SubscriptionSlots, type SlotDecision } from './subscription-slots.js';

function slotsWithClock(perSlowSubscription = 2, attemptTimeoutMs = 10_000) {
  let now = 0;
  const slots = new SubscriptionSlots({ perSlowSubscription, attemptTimeoutMs, now: () => now, random: () => 0.5 });
  return { slots, advance: (ms: number) => void (now += ms) };
}

function taken(decision: SlotDecision): { release(): void } {
  if (!decision.taken) throw new Error(`expected a slot, was told to wait ${decision.retryInMs} ms`);
  return decision;
}

describe('slots per subscription of a webhook worker', () => {
  it('when a subscriber answers fast, its deliveries are never capped', () => {
    const { slots, advance } = slotsWithClock(2);
    const first = taken(slots.take('fast'));
    advance(20);
    first.release();

    const running = Array.from({ length: 50 }, () => slots.take('fast'));

    expect(running.every((decision) => decision.taken)).toBe(true);
    expect(slots.runningOf('fast')).toBe(50);
  });

  it('when a subscriber turns slow, it gets no more than its share and the rest wait about one of its attempts', () => {
    const { slots, advance } = slotsWithClock(2, 10_000);
    const probe = taken(slots.take('slow'));
    advance(10_000); // an attempt that ran into the timeout
    probe.release();

    const first = slots.take('slow');
    const second = slots.take('slow');
    const third = slots.take('slow');

    expect([first.taken, second.taken, third.taken]).toEqual([true, true, false]);
    expect(third).toEqual({ taken: false, retryInMs: 10_000 }); // one typical attempt, capped at the timeout
    // Other subscriptions are not affected by the slow one.
    expect(slots.take('other').taken).toBe(true);
  });

  it('when a slow subscriber frees a slot, the next delivery takes it; a slot given back twice counts once', () => {
    const { slots, advance } = slotsWithClock(1, 2_000);
    const probe = taken(slots.take('slow'));
    advance(2_000);
    probe.release();
    const running = taken(slots.take('slow'));
    expect(slots.take('slow').taken).toBe(false);

    running.release();
    running.release();

    expect(slots.runningOf('slow')).toBe(0);
    expect(slots.take('slow').taken).toBe(true);
    expect(slots.take('slow').taken).toBe(false);
  });

  it('when a slow subscriber recovers, the cap lifts as its typical attempt time falls', () => {
    const { slots, advance } = slotsWithClock(1, 10_000);
    const slow = taken(slots.take('sub'));
    advance(10_000);
    slow.release();

    for (let attempt = 0; attempt < 20; attempt += 1) {
      const quick = taken(slots.take('sub'));
      advance(10);
      quick.release();
    }

    expect([slots.take('sub').taken, slots.take('sub').taken, slots.take('sub').taken]).toEqual([true, true, true]);
  });

  it('counts a subscriber as slow at 1 s, or at half the timeout when that is shorter', () => {
    const long = slotsWithClock(1, 10_000);
    const atOneSecond = taken(long.slots.take('sub'));
    long.advance(1_000);
    atOneSecond.release();
    taken(long.slots.take('sub'));
    expect(long.slots.take('sub').taken).toBe(false);

    const short = slotsWithClock(1, 600);
    const atHalf = taken(short.slots.take('sub'));
    short.advance(299);
    atHalf.release();
    taken(short.slots.take('sub'));
    expect(short.slots.take('sub').taken).toBe(true);
  });
});
