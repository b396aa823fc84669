import type { Migration } from '@wms/platform';
import { edi } from './0096-edi.js';
import { ediSftp } from './0100-edi-sftp.js';

/**
 * The EDI library's migrations, by name. Setup lists every library's in the one order they are applied
 * (libs/shared/setup/src/bootstrap/migrations.ts); a shipped migration keeps its name and place there.
 */
export const ediMigrations = {
  edi,
  ediSftp,
} satisfies Record<string, Migration>;
