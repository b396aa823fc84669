import { apiKeyRefusals } from '@wms/api-keys';
import { ediInboundMetrics } from '@wms/edi';
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

export function webhookProcessMetrics(
  queues: ExportingQueue[],
  readOutbox: () => Promise<OutboxStats>,
): ProcessMetrics {
  return new ProcessMetrics({ metrics: webhookMetrics, scraped: outboxGauges(readOutbox), queues });
}
