import { globSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';

/**
 * Each table has one owning library: its repositories alone query the table, its migrations change it, its
 * metrics describe it and its contracts name its queues. The ownership table in libs/shared/README.md says
 * which library owns what; this spec reads every library's SQL text and Sequelize model calls and holds
 * the code to that table.
 */
const root = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const sources = (pattern: string) =>
  globSync(pattern, { cwd: root }).filter((file) => !file.endsWith('.spec.ts') && !file.includes('/dist/'));

/** The backticked names of a table cell. */
const names = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);

/** The rows of the markdown table under `heading` in libs/shared/README.md, as cells. */
function tableUnder(heading: string): string[][] {
  const readme = read('libs/shared/README.md');
  const start = readme.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`libs/shared/README.md has no section ${heading}`);
  const lines = readme.slice(start + heading.length + 2).split('\n');
  const first = lines.findIndex((line) => line.startsWith('|'));
  const rows: string[][] = [];
  for (const line of lines.slice(first + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
  }
  return rows;
}

interface Owned {
  tables: string[];
  migrations: string[];
  metrics: string[];
  queues: string[];
}

const ownership = new Map<string, Owned>(
  tableUnder('## Ownership').map(([library, tables, migrations, metrics, queues]) => [
    names(library!)[0]!,
    { tables: names(tables!), migrations: names(migrations!), metrics: names(metrics!), queues: names(queues!) },
  ]),
);
/** Tables a library queries although another owns them, each with its reason (the list may only shrink). */
const shared = tableUnder('### Tables read across owners').map(([library, table]) => ({
  library: names(library!)[0]!,
  table: names(table!)[0]!,
}));

const libraries = globSync('libs/shared/*/package.json', { cwd: root }).map((file) => basename(join(file, '..')));
const migrationFiles = sources('libs/shared/*/src/**/migrations/*.ts').filter((file) => !file.endsWith('index.ts'));

/** Every table the migrations create. */
const schemaTables = [
  ...new Set(
    migrationFiles.flatMap((file) =>
      [...read(file).matchAll(/CREATE TABLE (?:IF NOT EXISTS )?([a-z_]+)\b(?! PARTITION OF)/gi)].map(
        (match) => match[1]!,
      ),
    ),
  ),
].sort();

/** The Sequelize model helpers (`userModel`) and the table each maps. */
const models = new Map(
  sources('libs/shared/*/src/**/*.ts').flatMap((file) => {
    const text = read(file);
    const model = /export const (\w+) = registerModel\(/.exec(text)?.[1];
    const table = /tableName: '([a-z_]+)'/.exec(text)?.[1];
    return model && table ? [[model, table] as const] : [];
  }),
);

const STATEMENT = /\b(?:FROM|JOIN|INTO|UPDATE|TABLE|TRUNCATE)\s+(?:ONLY\s+)?([a-z_]+)\b/gi;

/** The tables a file queries: named in its SQL text or reached through a model helper. */
function tablesQueried(file: string): string[] {
  const text = read(file);
  const named = [...text.matchAll(STATEMENT)].map((match) => match[1]!).filter((name) => schemaTables.includes(name));
  const modelled = [...models].filter(([model]) => new RegExp(`\\b${model}\\(`).test(text)).map(([, table]) => table);
  return [...new Set([...named, ...modelled])];
}

/** What the code of a library (without its migrations) queries, by table, with the files. */
function queriesOf(library: string): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const file of sources(`libs/shared/${library}/src/**/*.ts`).filter((file) => !file.includes('/migrations/')))
    for (const table of tablesQueried(file)) found.set(table, [...(found.get(table) ?? []), file]);
  return found;
}

describe('each table has one owning library', () => {
  it('the ownership table names every library of libs/shared once', () => {
    expect([...ownership.keys()].sort()).toEqual(libraries.map((library) => library).sort());
  });

  it('every table of the schema has exactly one owner, and every table named exists', () => {
    const owned = [...ownership.values()].flatMap((entry) => entry.tables);

    expect([...owned].sort()).toEqual(schemaTables);
  });

  it.each(libraries)('%s queries only the tables it owns', (library) => {
    const mine = new Set(ownership.get(library)?.tables ?? []);
    const allowed = new Set(shared.filter((entry) => entry.library === library).map((entry) => entry.table));

    const foreign = [...queriesOf(library)].filter(([table]) => !mine.has(table) && !allowed.has(table));

    expect(Object.fromEntries(foreign)).toEqual({});
  });

  it('every table read across owners is still read there (the list only shrinks)', () => {
    const stale = shared.filter(({ library, table }) => !queriesOf(library).has(table));

    expect(stale).toEqual([]);
  });

  it('the apps query no table: they call the owners’ services', () => {
    const queried = sources('apps/*/src/**/*.ts').flatMap((file) =>
      tablesQueried(file).map((table) => `${file}: ${table}`),
    );

    expect(queried).toEqual([]);
  });

  it('each queue is named by the contract of the library that owns it', () => {
    const declared = libraries.flatMap((library) =>
      sources(`libs/shared/${library}/src/**/*.ts`).flatMap((file) =>
        [...read(file).matchAll(/export const \w+_QUEUE = '([a-z-]+)'/g)].map((match) => `${library}: ${match[1]}`),
      ),
    );

    const listed = [...ownership].flatMap(([library, owned]) => owned.queues.map((queue) => `${library}: ${queue}`));
    expect(declared.sort()).toEqual(listed.sort());
  });

  it('each metric is defined by the library that owns it', () => {
    const defined = libraries.flatMap((library) =>
      sources(`libs/shared/${library}/src/**/*.ts`).flatMap((file) =>
        [...read(file).matchAll(/(?:name: |gauge\(\s*)'((?:wms|http)_[a-z_]+)'/g)].map(
          (match) => `${library}: ${match[1]}`,
        ),
      ),
    );

    const listed = [...ownership].flatMap(([library, owned]) => owned.metrics.map((metric) => `${library}: ${metric}`));
    expect(defined.sort()).toEqual(listed.sort());
  });

  it('each library creates its own tables (but in the two foundations that shipped so)', () => {
    // 0001 and 0003 made the first tables of several libraries at once, before the libraries were split;
    // a migration that shipped keeps its text, so they stay as they are and no other may join them.
    const foundations = ['0001-foundation', '0003-master-data'];
    const foreign = migrationFiles
      .filter((file) => !foundations.includes(basename(file, '.ts')))
      .flatMap((file) => {
        const library = file.split('/')[2]!;
        const created = [...read(file).matchAll(/CREATE TABLE (?:IF NOT EXISTS )?([a-z_]+)\b(?! PARTITION OF)/gi)];
        const mine = ownership.get(library)?.tables ?? [];
        return created
          .map((match) => match[1]!)
          .filter((table) => !mine.includes(table))
          .map((table) => `${file}: ${table}`);
      });

    expect(foreign).toEqual([]);
  });

  it('each migration lies in the library that owns it', () => {
    const placed = migrationFiles.map((file) => `${file.split('/')[2]}: ${basename(file, '.ts')}`);

    const listed = [...ownership].flatMap(([library, owned]) => owned.migrations.map((name) => `${library}: ${name}`));
    expect(placed.sort()).toEqual(listed.sort());
  });
});
