import { gatewayMetrics, ingestMetrics, webhookMetrics } from './definitions.js';
import type { ExportingQueue } from './queue-metrics.js';
import { ProcessMetrics } from './registry.js';
import { outboxGauges, type OutboxStats } from './scraped-gauges.js';

/** What each app exports; the apps and the dashboard's test build their registries here alike. */
export function gatewayProcessMetrics(queues: ExportingQueue[]): ProcessMetrics {
  return new ProcessMetrics({ metrics: gatewayMetrics, queues });
}

export function ingestProcessMetrics(queues: ExportingQueue[]): ProcessMetrics {
  return new ProcessMetrics({ metrics: ingestMetrics, queues });
}

export function webhookProcessMetrics(
  queues: ExportingQueue[],
  readOutbox: () => Promise<OutboxStats>,
): ProcessMetrics {
  return new ProcessMetrics({ metrics: webhookMetrics, scraped: outboxGauges(readOutbox), queues });
}
