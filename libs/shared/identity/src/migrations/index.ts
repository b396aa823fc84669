import type { Migration } from '@wms/platform';
import { foundation } from './0001-foundation.js';
import { auth } from './0005-auth.js';
import { adminLists } from './0015-admin-lists.js';
import { refreshTokenFamilies } from './0030-refresh-token-families.js';
import { listFilterIndexes } from './0036-list-filter-indexes.js';
import { sandboxTenants } from './0050-sandbox-tenants.js';
import { normalisedEmails } from './0090-normalised-emails.js';
import { loginAddressLocks } from './0091-login-address-locks.js';

/**
 * The identity library's migrations, by name. Setup lists every library's in the one order they are applied
 * (libs/shared/setup/src/bootstrap/migrations.ts); a shipped migration keeps its name and place there.
 */
export const identityMigrations = {
  foundation,
  auth,
  adminLists,
  refreshTokenFamilies,
  listFilterIndexes,
  sandboxTenants,
  normalisedEmails,
  loginAddressLocks,
} satisfies Record<string, Migration>;
