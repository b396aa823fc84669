import { RequestLogMaintenance, RequestLogRepository } from '@wms/api-keys';
import { EventsService } from '@wms/events';
import { AuditService } from '@wms/identity';
import {
  ACROSS_TENANTS,
  IdempotencyService,
  type Config,
  type Database,
  type Logger,
  type TenantWrites,
  unitOfWork,
} from '@wms/platform';
import { ImportsRepository } from '@wms/ingest';
import { WebhookLifecycleService, WebhooksService } from '@wms/webhooks';
import { RetentionSweeper } from '../retention/index.js';
import type { MaintenanceJobName, MaintenanceJobResult } from './maintenance-queue.js';

/** One pass of each maintenance job; a pass that throws is retried by the queue. */
export type MaintenanceTasks = Record<MaintenanceJobName, () => Promise<MaintenanceJobResult>>;

/** Rows a pass of the imports purge deletes at most per import, and imports per pass. */
const IMPORT_PURGE_ROWS = 50_000;
const IMPORT_PURGE_PASSES = 100;

/**
 * The maintenance jobs over the owners' services and repositories. With read replicas (`tenantWrites`), a
 * pass that changed what tenants read and told them so (subscriptions disabled, each with its event) counts
 * as a write across tenants, so no tenant's read after the event misses it. Retention's deletions are not
 * counted: a read that still finds a row past its retention shows nothing older than a tenant was told.
 */
export function maintenanceTasks(
  db: Database,
  config: Config,
  logger: Logger,
  tenantWrites: TenantWrites | null = null,
): MaintenanceTasks {
  const retention = new RetentionSweeper(db, config, new IdempotencyService(db, config), logger);
  const imports = new ImportsRepository(db, config);
  const requestLog = new RequestLogMaintenance(new RequestLogRepository(db), logger, {
    retentionDays: config.retention.requestLogDays,
    rollupRetentionDays: config.retention.requestLogRollupDays,
    daysAhead: config.retention.requestLogPartitionsAheadDays,
  });
  const events = new EventsService(db);
  const lifecycle = new WebhookLifecycleService(
    db,
    new WebhooksService(db, config, new AuditService(db), events),
    events,
  );
  return {
    'retention-sweep': async () => ({ ...(await retention.sweep()) }),
    'imports-purge': async () => {
      let purged = 0;
      while (
        purged < IMPORT_PURGE_PASSES &&
        (await unitOfWork(db, (work) => imports.purgeOne(config.imports.retentionSeconds, IMPORT_PURGE_ROWS, work)))
      )
        purged += 1;
      return { imports: purged };
    },
    'request-log-maintenance': async (): Promise<MaintenanceJobResult> => {
      const result = await requestLog.run();
      if (!result) return { skipped: 1 };
      return {
        created: result.created.length,
        dropped: result.dropped.length,
        settled: result.settled.length,
        rollupsDeleted: result.rollupsDeleted,
      };
    },
    'webhook-disable-sweep': async () => {
      const disabled = await lifecycle.disableFailing(config.webhook.disableAfterHours);
      if (disabled) {
        logger.warn({ disabled }, 'webhook subscriptions disabled after failing too long');
        await tenantWrites
          ?.afterWrite(ACROSS_TENANTS)
          .catch((error: unknown) => logger.warn({ err: error }, 'the write position of the sweep was not stored'));
      }
      return { disabled };
    },
  };
}
