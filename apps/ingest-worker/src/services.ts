import type { Config, Database, Runtime } from '@wms/platform';
import { openTenantWrites, queuePrefix } from '@wms/platform';
import { EventsService } from '@wms/events';
import { maintenanceIntervals, maintenanceTasks, startMaintenance, type Maintenance } from '@wms/setup';
import { AsnService, MasterDataService, OrdersService, ReturnsService } from '@wms/warehouse';
import { createIngestQueue, createIngestRegistry, type IngestQueue } from '@wms/ingest';

/** What the ingest worker runs: the integration API's entity handlers and the outbox for imports' events. */
export function createIngestServices(db: Database, config: Config) {
  const events = new EventsService(db, { checkData: config.nodeEnv !== 'production' });
  return {
    events,
    ingest: createIngestRegistry({
      masterData: new MasterDataService(db),
      asns: new AsnService(db),
      orders: new OrdersService(db, events),
      returns: new ReturnsService(db),
    }),
  };
}

export type IngestServices = ReturnType<typeof createIngestServices>;

/** A queue handle for the metrics only (job counts at scrape time); it shares the runtime's connection. */
export function createMetricsQueue(runtime: Runtime, config: Config): IngestQueue {
  const queue = createIngestQueue({ connection: runtime.redis, prefix: queuePrefix(config) });
  queue.on('error', () => undefined);
  return queue;
}

/**
 * The periodic work (retention, the imports purge, the request log's partitions, the failing-subscription
 * sweep) as the maintenance queue's job schedulers, processed here: once per interval over all replicas.
 */
export function startIngestMaintenance(runtime: Runtime, config: Config): Promise<Maintenance> {
  return startMaintenance({
    connection: runtime.redis,
    prefix: queuePrefix(config),
    intervals: maintenanceIntervals(config),
    tasks: maintenanceTasks(runtime.db, config, runtime.logger, openTenantWrites(runtime)),
    logger: runtime.logger,
  });
}
