import type { Migration } from '@wms/platform';
import { bulkJobs } from './0008-bulk-jobs.js';
import { bulkJobFinished } from './0021-bulk-job-finished.js';
import { bulkJobResultStatus } from './0023-bulk-job-result-status.js';
import { imports } from './0040-imports.js';
import { importTenantTurns } from './0047-import-tenant-turns.js';
import { bulkJobTurns } from './0054-bulk-job-turns.js';
import { importChunkTurns } from './0055-import-chunk-turns.js';
import { importTraceContext } from './0058-import-trace-context.js';
import { bulkJobAnsweredAccepted } from './0064-bulk-job-answered-accepted.js';

/**
 * The ingest library's migrations, by name. Setup lists every library's in the one order they are applied
 * (libs/shared/setup/src/bootstrap/migrations.ts); a shipped migration keeps its name and place there.
 */
export const ingestMigrations = {
  bulkJobs,
  bulkJobFinished,
  bulkJobResultStatus,
  imports,
  importTenantTurns,
  bulkJobTurns,
  importChunkTurns,
  importTraceContext,
  bulkJobAnsweredAccepted,
} satisfies Record<string, Migration>;
