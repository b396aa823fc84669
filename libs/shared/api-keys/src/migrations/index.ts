import type { Migration } from '@wms/platform';
import { apiKeys } from './0002-api-keys.js';
import { requestLogWithoutKeyCheck } from './0022-request-log-without-key-check.js';
import { peopleListPaging } from './0033-people-list-paging.js';
import { partitionedRequestLog } from './0035-partitioned-request-log.js';
import { keyOutcomes } from './0051-key-outcomes.js';
import { keyApiVersions } from './0060-key-api-versions.js';

/**
 * The API-key library's migrations, by name. Setup lists every library's in the one order they are applied
 * (libs/shared/setup/src/bootstrap/migrations.ts); a shipped migration keeps its name and place there.
 */
export const apiKeysMigrations = {
  apiKeys,
  requestLogWithoutKeyCheck,
  peopleListPaging,
  partitionedRequestLog,
  keyOutcomes,
  keyApiVersions,
} satisfies Record<string, Migration>;
