import { globSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * One door to a transaction (docs/adr/0130-reaching-postgresql.md): a service asks for a unit of work
 * (`unitOfWork(db, async (work) => …)`, libs/shared/platform/src/db/unit-of-work.ts) and hands it to its
 * repositories as a parameter; nothing else opens a transaction with `sequelize.transaction(`, so every
 * transaction commits, rolls back and meets the request's deadline the same way. Specs are not held: they
 * open transactions of their own to set up data or to hold a lock while the code under test waits on it
 * (an unmanaged transaction, which a unit of work deliberately does not offer).
 */

const root = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..');
const UNIT_OF_WORK = 'libs/shared/platform/src/db/unit-of-work.ts';
const OPENS_A_TRANSACTION = /\bsequelize\s*\.\s*transaction\s*\(/;

/** The service's source files in libs/ and apps/, their test harness included (not their specs). */
function sources(): Array<{ file: string; text: string }> {
  return globSync(['libs/*/src/**/*.ts', 'libs/shared/*/src/**/*.ts', 'apps/*/src/**/*.ts'], { cwd: root })
    .filter((file) => !file.endsWith('.spec.ts') && !file.includes('/dist/'))
    .sort()
    .map((file) => ({ file, text: readFileSync(join(root, file), 'utf8') }));
}

describe('transactions', () => {
  it('are opened by `unitOfWork` alone: no `sequelize.transaction(` outside its file', () => {
    const opening = sources()
      .filter(({ text }) => OPENS_A_TRANSACTION.test(text))
      .map(({ file }) => file);

    expect(opening).toEqual([UNIT_OF_WORK]);
  });

  it('are asked for by services and workers; a repository receives its unit of work and opens none', () => {
    const repositoriesOpening = sources()
      .filter(({ file, text }) => file.endsWith('.repository.ts') && /\bunitOfWork\s*\(/.test(text))
      .map(({ file }) => file);

    expect(repositoriesOpening).toEqual([]);
  });

  it('reach the sources the rule is about (the glob finds the services and the unit of work itself)', () => {
    const files = sources().map(({ file }) => file);

    expect(files).toContain(UNIT_OF_WORK);
    expect(files).toContain('libs/shared/webhooks/src/subscriptions/webhooks.service.ts');
    expect(files).toContain('libs/testing/src/factories.ts');
  });
});
