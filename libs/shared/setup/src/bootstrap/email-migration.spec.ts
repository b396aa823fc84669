import type { Sequelize } from 'sequelize';
import { databaseUrl, uniqueDatabaseName } from '@wms/testing';
import { createSequelize, dropDatabase, ensureDatabase, runMigrations } from '@wms/platform';
import { migrations } from './migrations.js';

describe('normalising the e-mails stored before they were normalised', () => {
  let url: string;
  let sequelize: Sequelize;

  const emails = async () => {
    const [rows] = (await sequelize.query(
      `SELECT email FROM users WHERE email <> 'admin@wms.local' ORDER BY email`,
    )) as [Array<{ email: string }>, unknown];
    return rows.map((row) => row.email);
  };

  beforeAll(async () => {
    url = databaseUrl(uniqueDatabaseName('email-migration'));
    await ensureDatabase(url);
    sequelize = createSequelize({ databaseUrl: url, databasePoolMax: 2 });
    const before = migrations.findIndex((migration) => migration.name === '0090-normalised-emails');
    await runMigrations(sequelize, url, undefined, migrations.slice(0, before));
  });
  afterAll(async () => {
    await sequelize.close();
    await dropDatabase(url);
  });

  it('when an e-mail has one normal form no one else has it is stored in it; look-alikes of each other are left as they were', async () => {
    // Arrange: a fullwidth address alone, a soft hyphen alone, and an address with two look-alikes beside it.
    const stored = [
      'ｓ４-alone@example.com',
      'bo\u00adb@example.com',
      'ann@example.com',
      'ａｎｎ@example.com',
      'ann\u200b@example.com',
    ];
    for (const email of stored)
      await sequelize.query(`INSERT INTO users (email, password_hash, role) VALUES ($1, 'x', 'viewer')`, {
        bind: [email],
      });

    // Act
    const applied = await runMigrations(sequelize, url, undefined, migrations);

    // Assert
    expect(applied).toContain('0090-normalised-emails');
    expect(await emails()).toEqual(
      [
        'ann@example.com',
        'ann\u200b@example.com',
        'bob@example.com',
        's4-alone@example.com',
        'ａｎｎ@example.com',
      ].sort(),
    );
  });
});
