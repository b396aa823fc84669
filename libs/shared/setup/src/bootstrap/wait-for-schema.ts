import { setTimeout as delay } from 'node:timers/promises';
import type { Config, Logger } from '@wms/platform';
import { createSequelize, pendingMigrations } from '@wms/platform';
import { migrations } from './migrations.js';

export interface WaitForSchemaOptions {
  /** How often the applied migrations are read again. */
  intervalMs?: number;
  /** How often the wait is logged while it lasts (the first time at once). */
  reportEveryMs?: number;
  /** Ends the wait early (the process is stopping); the promise then rejects with the signal's reason. */
  signal?: AbortSignal;
}

/**
 * For an app that does not migrate at start (MIGRATE_ON_START=false): resolves once the database has every
 * migration this build knows applied, which a migrate run (the release's migration Job) does. A database
 * that does not answer yet counts as not migrated. A schema ahead of this build (a newer release migrated
 * first) is fine: only this build's own migrations are looked for. No bound of its own: the orchestrator's
 * start-up probe decides how long a process may take to come up.
 */
export async function waitForSchema(config: Config, logger: Logger, options: WaitForSchemaOptions = {}): Promise<void> {
  const { intervalMs = 2_000, reportEveryMs = 30_000, signal } = options;
  const sequelize = createSequelize({ ...config, databasePoolMax: 2 });
  try {
    let reportedAt = Number.NEGATIVE_INFINITY;
    for (;;) {
      signal?.throwIfAborted();
      const pending = await pendingMigrations(sequelize, migrations);
      if (pending.length === 0) return;
      if (Date.now() - reportedAt >= reportEveryMs) {
        reportedAt = Date.now();
        logger.warn(
          { pending: pending.length, first: pending[0] },
          'waiting for the database schema: a migrate run has not applied every migration of this release yet',
        );
      }
      await delay(intervalMs, undefined, { signal });
    }
  } finally {
    await sequelize.close();
  }
}
