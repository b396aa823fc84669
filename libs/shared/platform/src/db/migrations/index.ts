import type { Migration } from '../migration.js';
import { foundation } from './0001-foundation.js';
import { apiKeys } from './0002-api-keys.js';
import { masterData } from './0003-master-data.js';
import { eventsWebhooks } from './0004-events-webhooks.js';
import { auth } from './0005-auth.js';
import { documents } from './0006-documents.js';
import { operations } from './0007-operations.js';
import { bulkJobs } from './0008-bulk-jobs.js';
import { adminLists } from './0015-admin-lists.js';
import { observability } from './0012-observability.js';
import { lifecycles } from './0009-lifecycles.js';
import { userIdempotency } from './0010-user-idempotency.js';
import { deliveryRecheck } from './0020-delivery-recheck.js';
import { bulkJobFinished } from './0021-bulk-job-finished.js';
import { requestLogWithoutKeyCheck } from './0022-request-log-without-key-check.js';
import { bulkJobResultStatus } from './0023-bulk-job-result-status.js';
import { peopleListPaging } from './0033-people-list-paging.js';
import { refreshTokenFamilies } from './0030-refresh-token-families.js';
import { partitionedRequestLog } from './0035-partitioned-request-log.js';
import { listFilterIndexes } from './0036-list-filter-indexes.js';
import { imports } from './0040-imports.js';
import { webhookFilters } from './0045-webhook-filters.js';
import { webhookRateOrder } from './0046-webhook-rate-order.js';
import { deliveryEventType } from './0037-delivery-event-type.js';
import { importTenantTurns } from './0047-import-tenant-turns.js';
import { sandboxTenants } from './0050-sandbox-tenants.js';
import { keyOutcomes } from './0051-key-outcomes.js';
import { bulkJobTurns } from './0054-bulk-job-turns.js';

/** Every migration, in the order it is applied. Append; never reorder or edit one that has shipped. */
export const migrations: Migration[] = [
  foundation,
  apiKeys,
  masterData,
  eventsWebhooks,
  auth,
  documents,
  operations,
  adminLists,
  observability,
  bulkJobs,
  lifecycles,
  userIdempotency,
  deliveryRecheck,
  bulkJobFinished,
  requestLogWithoutKeyCheck,
  bulkJobResultStatus,
  peopleListPaging,
  refreshTokenFamilies,
  partitionedRequestLog,
  listFilterIndexes,
  imports,
  webhookFilters,
  webhookRateOrder,
  deliveryEventType,
  importTenantTurns,
  sandboxTenants,
  keyOutcomes,
  bulkJobTurns,
];
