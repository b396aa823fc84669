import { globSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * How the code reaches PostgreSQL (docs/adr/0130-reaching-postgresql.md): values pass as `bind` with `$n`
 * (no Sequelize `replacements`); an optional filter is `($n::type IS NULL OR …)` in one fixed statement text;
 * `Binds` only builds a partial update's SET list; the four Sequelize models stay the only ones; pg's Pool
 * lives in platform/db alone, and a connection of its own only where the record names one.
 */

const root = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..');
const USES_REPLACEMENTS = /\breplacements\s*(:|,|\})/;

/** The service's source files (not its specs). */
function sources(): Array<{ file: string; text: string }> {
  return globSync(['libs/shared/*/src/**/*.ts', 'apps/*/src/**/*.ts'], { cwd: root })
    .filter((file) => !file.endsWith('.spec.ts') && !file.includes('/dist/'))
    .sort()
    .map((file) => ({ file, text: readFileSync(join(root, file), 'utf8') }));
}

function filesWhere(test: (text: string) => boolean): string[] {
  return sources()
    .filter(({ text }) => test(text))
    .map(({ file }) => file);
}

describe('SQL parameters', () => {
  it('pass as positional binds everywhere', () => {
    expect(filesWhere((text) => USES_REPLACEMENTS.test(text))).toEqual([]);
  });
});

describe('optional filters', () => {
  it('are written `($n::type IS NULL OR …)`, never as conditions gathered into a WHERE built at run time', () => {
    expect(filesWhere((text) => /\b(conditions|filters|clauses)\.push\(/.test(text))).toEqual([]);
  });

  it('name the type of the value they test, so PostgreSQL never has to guess it from a null', () => {
    expect(filesWhere((text) => /\(\$\d+ IS NULL OR/.test(text))).toEqual([]);
  });

  it('leave `Binds` to the SET list of a partial update', () => {
    const misused = sources().filter(({ text }) =>
      [...text.matchAll(/new Binds\(\)/g)].some((match) => {
        const statement = text.slice(match.index, text.indexOf('sequelize.query(', match.index) + 200);
        return !/UPDATE \w+ SET \$\{/.test(statement);
      }),
    );

    expect(misused.map(({ file }) => file)).toEqual([]);
  });
});

describe('the ways to PostgreSQL', () => {
  it('Sequelize models are the four of plain one-row admin CRUD, and no other', () => {
    expect(filesWhere((text) => /sequelize\.define\(/.test(text))).toEqual([
      'libs/shared/identity/src/audit/audit-log.model.ts',
      'libs/shared/identity/src/tenants/tenant.model.ts',
      'libs/shared/identity/src/users/user.model.ts',
      'libs/shared/warehouse/src/warehouses/warehouse.model.ts',
    ]);
  });

  it("pg's Pool is made in platform/db only, beside Sequelize's", () => {
    expect(filesWhere((text) => /new (pg\.)?Pool\(/.test(text))).toEqual(['libs/shared/platform/src/db/database.ts']);
  });

  it('a connection of its own is opened only where a session outlives a pool’s loan (ADR 0130 names each)', () => {
    expect(filesWhere((text) => /new (pg\.)?Client\(/.test(text))).toEqual([
      // LISTEN for bulk job signals.
      'libs/shared/ingest/src/bulk-jobs/bulk-job-signals.ts',
      // An upload's COPY, as long as its body streams in.
      'libs/shared/ingest/src/imports/imports.repository.ts',
      // CREATE and DROP DATABASE on the maintenance database.
      'libs/shared/platform/src/db/database.ts',
      // The migrations' advisory lock.
      'libs/shared/platform/src/db/migrator.ts',
      // LISTEN for the outbox relay.
      'libs/shared/webhooks/src/outbox/outbox-relay.ts',
    ]);
  });
});
