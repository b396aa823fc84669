import { createSequelize, dropDatabase, ensureDatabase, runMigrations, type Migration } from '@wms/platform';
import { databaseUrl, uniqueDatabaseName } from '@wms/testing';
import { migrations } from './migrations.js';

/** The names databases have recorded, in the order they were applied: a shipped migration never moves. */
const SHIPPED = [
  '0001-foundation',
  '0002-api-keys',
  '0003-master-data',
  '0004-events-webhooks',
  '0005-auth',
  '0006-documents',
  '0007-operations',
  '0015-admin-lists',
  '0012-observability',
  '0008-bulk-jobs',
  '0009-lifecycles',
  '0010-user-idempotency',
  '0020-delivery-recheck',
  '0021-bulk-job-finished',
  '0022-request-log-without-key-check',
  '0023-bulk-job-result-status',
  '0033-people-list-paging',
  '0030-refresh-token-families',
  '0035-partitioned-request-log',
  '0036-list-filter-indexes',
  '0040-imports',
  '0045-webhook-filters',
  '0046-webhook-rate-order',
  '0037-delivery-event-type',
  '0047-import-tenant-turns',
  '0050-sandbox-tenants',
  '0051-key-outcomes',
  '0054-bulk-job-turns',
];

/**
 * Parts of a shipped migration split off into the library that owns their tables, each placed just before
 * the migration it came from: on a fresh database they do what it did; on one that ran it whole, nothing.
 */
const SPLIT_OFF: Record<string, string> = {
  '0004-events-outbox': '0004-events-webhooks',
  '0046-event-sequences': '0046-webhook-rate-order',
};

describe('the migrations composed from the libraries', () => {
  it('keep every shipped migration under its recorded name, in the order it was applied', () => {
    const names = migrations.map((migration) => migration.name).filter((name) => !(name in SPLIT_OFF));

    expect(names.slice(0, SHIPPED.length)).toEqual(SHIPPED);
  });

  it('place each part split off a shipped migration just before it', () => {
    const names = migrations.map((migration) => migration.name);

    const followers = Object.keys(SPLIT_OFF).map((name) => [name, names[names.indexOf(name) + 1]]);
    expect(Object.fromEntries(followers)).toEqual(SPLIT_OFF);
  });

  it('name each migration once', () => {
    const names = migrations.map((migration) => migration.name);

    expect(new Set(names).size).toBe(names.length);
  });
});

/** Tables, columns, constraints, indexes and sequences of the public schema, as comparable text. */
async function schemaOf(url: string): Promise<string[]> {
  const sequelize = createSequelize({ databaseUrl: url, databasePoolMax: 1 });
  try {
    const [rows] = (await sequelize.query(`
      SELECT 'column ' || table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable || ' ' ||
             coalesce(column_default, '') AS line
        FROM information_schema.columns WHERE table_schema = 'public'
      UNION ALL
      SELECT 'constraint ' || conrelid::regclass || ' ' || conname || ' ' || pg_get_constraintdef(oid)
        FROM pg_constraint WHERE connamespace = 'public'::regnamespace
      UNION ALL
      SELECT 'index ' || indexdef FROM pg_indexes WHERE schemaname = 'public'
      UNION ALL
      SELECT 'sequence ' || sequence_name FROM information_schema.sequences WHERE sequence_schema = 'public'
      ORDER BY 1`)) as [Array<{ line: string }>, unknown];
    return rows.map((row) => row.line);
  } finally {
    await sequelize.close();
  }
}

async function migrated(label: string, list: Migration[]): Promise<{ url: string; applied: string[] }> {
  const url = databaseUrl(uniqueDatabaseName(label));
  await ensureDatabase(url);
  const sequelize = createSequelize({ databaseUrl: url, databasePoolMax: 2 });
  try {
    return { url, applied: await runMigrations(sequelize, url, undefined, list) };
  } finally {
    await sequelize.close();
  }
}

describe('a split migration on a database that ran it whole', () => {
  const urls: string[] = [];
  afterAll(async () => {
    for (const url of urls) await dropDatabase(url);
  });

  it('when a database migrated before the split is migrated now, only the split-off parts run, doing nothing, and its schema is a fresh one', async () => {
    // Arrange: the list as it shipped, each split pair joined again under the shipped name.
    const byName = new Map(migrations.map((migration) => [migration.name, migration]));
    const shipped = migrations
      .filter((migration) => !(migration.name in SPLIT_OFF))
      .map((migration): Migration => {
        const part = Object.keys(SPLIT_OFF).find((name) => SPLIT_OFF[name] === migration.name);
        if (!part) return migration;
        return {
          name: migration.name,
          up: async (context) => {
            await byName.get(part)!.up(context);
            await migration.up(context);
          },
        };
      });
    const before = await migrated('split-before', shipped);
    urls.push(before.url);

    // Act
    const sequelize = createSequelize({ databaseUrl: before.url, databasePoolMax: 2 });
    const applied = await runMigrations(sequelize, before.url, undefined, migrations).finally(() => sequelize.close());
    const fresh = await migrated('split-fresh', migrations);
    urls.push(fresh.url);

    // Assert
    expect(applied).toEqual(Object.keys(SPLIT_OFF));
    expect(await schemaOf(before.url)).toEqual(await schemaOf(fresh.url));
  }, 120_000);
});
