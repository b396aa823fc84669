import type { Config } from '@wms/platform';
import { createSequelize, ensureDatabase, runMigrations } from '@wms/platform';
import type { Logger } from '@wms/platform';
import { SecretBox, resealSecrets } from '@wms/webhooks';
import { migrations } from './migrations.js';
import { runSeed } from './seed.js';

/**
 * Creates the database when missing, applies migrations, re-seals secrets still in the former
 * JWT_SECRET-derived format under the key ring, and runs the seed routine.
 */
export async function prepareDatabase(config: Config, logger: Logger): Promise<void> {
  if (await ensureDatabase(config.databaseUrl)) logger.info('database created');
  const sequelize = createSequelize({ ...config, databasePoolMax: 2 }, { work: 'migrations' });
  try {
    await runMigrations(sequelize, config.databaseUrl, logger, migrations);
    const legacy = await resealSecrets({ sequelize }, SecretBox.fromConfig(config), { onlyLegacy: true });
    if (legacy.resealed) logger.info({ resealed: legacy.resealed }, 'secrets of the former format re-sealed');
    if (legacy.unreadable.length)
      logger.warn({ subscriptions: legacy.unreadable }, 'sealed secrets no key opens; rotate these subscriptions');
    await runSeed({ sequelize }, config, logger);
  } finally {
    await sequelize.close();
  }
}
