import { apiKeyRefusals } from '@wms/api-keys';
import { ediInboundMetrics, ediOutboundGauges } from '@wms/edi';
import { ingestMetrics } from '@wms/ingest';
import { ProcessMetrics, guardMetrics, httpMetrics, replicaMetrics, type ExportingQueue } from '@wms/platform';
import { outboxGauges, webhookMetrics, type OutboxStats } from '@wms/webhooks';

/** The gateway's own metrics (queue gauges and process metrics are added by the registry). */
const gatewayMetrics = [...httpMetrics, apiKeyRefusals, ...guardMetrics, ...replicaMetrics];

/**
 * What each app exports, composed from the libraries that define the metrics; the apps and the dashboard's
 * test build their registries here alike.
 */
export function gatewayProcessMetrics(queues: ExportingQueue[]): ProcessMetrics {
  return new ProcessMetrics({ metrics: gatewayMetrics, queues });
}

export function ingestProcessMetrics(queues: ExportingQueue[]): ProcessMetrics {
  return new ProcessMetrics({ metrics: [...ingestMetrics, ...ediInboundMetrics], queues });
}

/** The webhook worker's: deliveries, the outbox and, with `readEdi`, the EDI advices waiting for a 997. */
export function webhookProcessMetrics(
  queues: ExportingQueue[],
  readOutbox: () => Promise<OutboxStats>,
  readEdi?: () => Promise<{ overdue: number; waiting: number }>,
): ProcessMetrics {
  const scraped = [...outboxGauges(readOutbox), ...(readEdi ? ediOutboundGauges(readEdi) : [])];
  return new ProcessMetrics({ metrics: webhookMetrics, scraped, queues });
}
