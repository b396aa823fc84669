import { signWebhook, verifyWebhookSignature, WEBHOOK_TIMESTAMP_TOLERANCE_SECONDS } from './signing.js';

describe('verifyWebhookSignature (the reference receiver)', () => {
  const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
  const id = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
  const body = '{"test": 2432232314}';
  const now = 1_700_000_000;

  const verifyAt = (timestamp: number, clock = now) =>
    verifyWebhookSignature(secret, id, timestamp, body, signWebhook(secret, id, timestamp, body), { now: clock });

  it('accepts a correctly signed message whose timestamp is within 5 minutes of the clock, either way', () => {
    expect(WEBHOOK_TIMESTAMP_TOLERANCE_SECONDS).toBe(300);
    expect(verifyAt(now)).toBe(true);
    expect(verifyAt(now - 300)).toBe(true);
    expect(verifyAt(now + 300)).toBe(true);
  });

  it('refuses a correctly signed message older than 5 minutes, so a captured one cannot be replayed later', () => {
    expect(verifyAt(now - 301)).toBe(false);
  });

  it('refuses a correctly signed message more than 5 minutes in the future', () => {
    expect(verifyAt(now + 301)).toBe(false);
  });

  it('refuses a timestamp that is not a number', () => {
    const signature = signWebhook(secret, id, now, body);

    expect(verifyWebhookSignature(secret, id, Number('abc'), body, signature, { now })).toBe(false);
  });

  it('checks against the current clock when none is given', () => {
    const current = Math.floor(Date.now() / 1000);
    const stale = current - 3_600;

    expect(verifyWebhookSignature(secret, id, current, body, signWebhook(secret, id, current, body))).toBe(true);
    expect(verifyWebhookSignature(secret, id, stale, body, signWebhook(secret, id, stale, body))).toBe(false);
  });
});
