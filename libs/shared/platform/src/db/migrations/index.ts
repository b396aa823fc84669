import type { Migration } from '../migration.js';
import { userIdempotency } from './0010-user-idempotency.js';

/**
 * The platform's migrations, by name. Setup lists every library's in the one order they are applied
 * (libs/shared/setup/src/bootstrap/migrations.ts); a shipped migration keeps its name and place there.
 */
export const platformMigrations = { userIdempotency } satisfies Record<string, Migration>;
