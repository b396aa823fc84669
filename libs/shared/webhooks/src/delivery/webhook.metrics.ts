import { Counter, Histogram, type Metric } from 'prom-client';
import { LATENCY_BUCKETS } from '@wms/platform';

/** The webhook worker's metrics of deliveries; the names are an interface (dashboards and alerts rely on them). */
export const webhookDeliveries = new Counter({
  name: 'wms_webhook_deliveries_total',
  help: 'Webhook delivery attempts by outcome (succeeded, retried, failed, disabled)',
  labelNames: ['outcome'] as const,
  registers: [],
});

export const webhookAttemptDuration = new Histogram({
  name: 'wms_webhook_attempt_duration_seconds',
  help: 'Time from sending a webhook to its answer (or timeout or connection error)',
  buckets: LATENCY_BUCKETS,
  registers: [],
});

export const webhookMetrics: Metric[] = [webhookDeliveries, webhookAttemptDuration];
