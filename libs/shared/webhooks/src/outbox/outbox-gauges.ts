import { Gauge } from 'prom-client';

/** What the outbox gauges show; read from PostgreSQL when Prometheus scrapes. */
export interface OutboxStats {
  /** Events committed and not yet relayed (fanned out to deliveries). */
  backlog: number;
  /** Age of the oldest of them; 0 when there is none. */
  oldestEventAgeSeconds: number;
  /** Subscriptions with at least one delivery being retried after a failed attempt. */
  failingSubscriptions: number;
}

/**
 * The webhook worker's gauges of state that lives in PostgreSQL. The three gauges share one query per
 * scrape (the registry collects them at once; a read in flight is reused). A failed read leaves the gauges unset for
 * that scrape, so a dashboard shows a gap, not a zero.
 */
export function outboxGauges(read: () => Promise<OutboxStats>): Gauge[] {
  let inFlight: Promise<OutboxStats> | undefined;
  const stats = () =>
    (inFlight ??= read().finally(() => {
      inFlight = undefined;
    }));
  const gauge = (name: string, help: string, pick: (stats: OutboxStats) => number) =>
    new Gauge({
      name,
      help,
      registers: [],
      async collect() {
        this.reset();
        const value = await stats().then(pick, () => undefined);
        if (value !== undefined) this.set(value);
      },
    });
  return [
    gauge('wms_outbox_backlog', 'Events committed and not yet relayed to webhook deliveries', (s) => s.backlog),
    gauge(
      'wms_outbox_oldest_event_age_seconds',
      'Age of the oldest event not yet relayed (0 when none waits)',
      (s) => s.oldestEventAgeSeconds,
    ),
    gauge(
      'wms_webhook_subscriptions_failing',
      'Subscriptions with a delivery being retried after a failed attempt',
      (s) => s.failingSubscriptions,
    ),
  ];
}
