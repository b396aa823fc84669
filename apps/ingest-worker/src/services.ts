import type { Config, Database } from '@wms/platform';
import { IdempotencyService } from '@wms/platform';
import { EventsService } from '@wms/events';
import { AsnService, MasterDataService, OrdersService } from '@wms/warehouse';
import { createIngestRegistry } from '@wms/ingest';

/** What the ingest worker runs: the integration API's entity handlers, the outbox for imports' events, and idempotency for its purge. */
export function createIngestServices(db: Database, config: Config) {
  const events = new EventsService(db, { checkData: config.nodeEnv !== 'production' });
  return {
    events,
    ingest: createIngestRegistry({
      masterData: new MasterDataService(db),
      asns: new AsnService(db),
      orders: new OrdersService(db, events),
    }),
    idempotency: new IdempotencyService(db, config),
  };
}

export type IngestServices = ReturnType<typeof createIngestServices>;
