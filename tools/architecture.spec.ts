import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// docs/architecture.md against the tree: what it draws and lists by hand (the queues, the processes) is
// what the code defines; what only the code or the ownership table can keep true (the migrations, the
// tables and who owns them) it leaves to them by a link, never as a copy.
const root = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');
const architecture = read('docs/architecture.md');

/** Every BullMQ queue a library defines (`export const <NAME>_QUEUE = '<name>'`), as the ownership spec reads them. */
function queuesInCode(): string[] {
  const sources = (dir: string): string[] =>
    readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory()
        ? sources(join(dir, entry.name))
        : entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts')
          ? [join(dir, entry.name)]
          : [],
    );
  return sources('libs/shared').flatMap((file) =>
    [...read(file).matchAll(/export const \w+_QUEUE = '([a-z-]+)'/g)].map((match) => match[1]!),
  );
}

describe('docs/architecture.md', () => {
  it('draws every queue the libraries define, and no other', () => {
    const drawn = [...architecture.matchAll(/\[\[BullMQ queue: ([a-z-]+)\]\]/g)].map((match) => match[1]!);

    expect(queuesInCode().length).toBeGreaterThan(0);
    expect([...new Set(drawn)].sort()).toEqual([...new Set(queuesInCode())].sort());
  });

  it('lists the same queues where it says what Redis holds', () => {
    const redis = /\*\*Redis\*\* holds what may be rebuilt: the BullMQ queues drawn above \(([^;]*);/.exec(
      architecture,
    );

    expect(redis).not.toBeNull();
    const listed = [...redis![1]!.matchAll(/`([a-z-]+)`/g)].map((match) => match[1]!);
    expect(listed.sort()).toEqual([...new Set(queuesInCode())].sort());
  });

  it('has a row for every app, naming its folder', () => {
    const apps = readdirSync(join(root, 'apps'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);

    const rows = [...architecture.matchAll(/^\| ([\w-]+) \| `apps\/([\w-]+)` \|/gm)].map((row) => [row[1], row[2]]);
    expect(rows.map(([name]) => name).sort()).toEqual(apps.sort());
    for (const [name, folder] of rows) expect(folder).toBe(name);
  });

  it('keeps no copy of the migrations or the ownership table: it links to where they are kept', () => {
    expect(architecture).not.toMatch(/^\| migration \|/m);
    expect(architecture).toContain('[libs/shared/README.md](../libs/shared/README.md)');
    expect(architecture).toContain('`libs/shared/setup/src/bootstrap/migrations.ts`');
    // A migration's name (`0040-imports`), not a record's file (`adr/0170-typed-client-package.md`).
    expect(architecture.match(/(?<!adr\/)\b\d{4}-[a-z][\w-]*/g) ?? []).toEqual([]);
  });
});
