import type { Migration } from '@wms/platform';
import { platformMigrations } from '@wms/platform';
import { identityMigrations } from '@wms/identity';
import { apiKeysMigrations } from '@wms/api-keys';
import { warehouseMigrations } from '@wms/warehouse';
import { ingestMigrations } from '@wms/ingest';
import { webhooksMigrations } from '@wms/webhooks';
import { eventsMigrations } from '@wms/events';
import { ediMigrations } from '@wms/edi';

/**
 * Every migration, in the order it is applied: the one list the migrator runs. Each library owns its
 * migration files (the ownership table in libs/shared/README.md); this list only orders them. Append a new
 * migration at the end; never reorder, rename or edit one that has shipped (databases record its name). The
 * one exception is a split: the part of a shipped migration that made another library's tables moves to
 * that library as a migration placed just before it, written so that it does nothing where the shipped one
 * ran (migrations.spec.ts lists the splits and holds them to that).
 */
export const migrations: Migration[] = [
  identityMigrations.foundation,
  apiKeysMigrations.apiKeys,
  warehouseMigrations.masterData,
  eventsMigrations.eventsOutbox,
  webhooksMigrations.eventsWebhooks,
  identityMigrations.auth,
  warehouseMigrations.documents,
  warehouseMigrations.operations,
  identityMigrations.adminLists,
  webhooksMigrations.observability,
  ingestMigrations.bulkJobs,
  webhooksMigrations.lifecycles,
  platformMigrations.userIdempotency,
  webhooksMigrations.deliveryRecheck,
  ingestMigrations.bulkJobFinished,
  apiKeysMigrations.requestLogWithoutKeyCheck,
  ingestMigrations.bulkJobResultStatus,
  apiKeysMigrations.peopleListPaging,
  identityMigrations.refreshTokenFamilies,
  apiKeysMigrations.partitionedRequestLog,
  identityMigrations.listFilterIndexes,
  ingestMigrations.imports,
  webhooksMigrations.webhookFilters,
  eventsMigrations.eventSequences,
  webhooksMigrations.webhookRateOrder,
  webhooksMigrations.deliveryEventType,
  ingestMigrations.importTenantTurns,
  identityMigrations.sandboxTenants,
  apiKeysMigrations.keyOutcomes,
  ingestMigrations.bulkJobTurns,
  ingestMigrations.importChunkTurns,
  eventsMigrations.eventTraceContext,
  ingestMigrations.importTraceContext,
  warehouseMigrations.stockLedger,
  apiKeysMigrations.keyApiVersions,
  webhooksMigrations.subscriptionApiVersions,
  warehouseMigrations.returns,
  warehouseMigrations.snapshotDispatch,
  ingestMigrations.bulkJobAnsweredAccepted,
  warehouseMigrations.catalogueReads,
  identityMigrations.normalisedEmails,
  identityMigrations.loginAddressLocks,
  webhooksMigrations.subscriptionDestinations,
  ediMigrations.edi,
  webhooksMigrations.ediDestinations,
  ediMigrations.ediSftp,
];
