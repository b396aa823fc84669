import type { Migration } from '@wms/platform';
import { masterData } from './0003-master-data.js';
import { documents } from './0006-documents.js';
import { operations } from './0007-operations.js';
import { stockLedger } from './0059-stock-ledger.js';
import { returns } from './0062-returns.js';
import { snapshotDispatch } from './0063-snapshot-dispatch.js';
import { catalogueReads } from './0070-catalogue-reads.js';

/**
 * The warehouse library's migrations, by name. Setup lists every library's in the one order they are applied
 * (libs/shared/setup/src/bootstrap/migrations.ts); a shipped migration keeps its name and place there.
 */
export const warehouseMigrations = {
  masterData,
  documents,
  operations,
  stockLedger,
  returns,
  snapshotDispatch,
  catalogueReads,
} satisfies Record<string, Migration>;
