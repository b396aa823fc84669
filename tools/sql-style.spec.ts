import { globSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * One SQL parameter style (docs/adr/0183-one-sql-parameter-style.md): values pass as `bind` with `$n`.
 * No file passes Sequelize `replacements` (`:name`) any more, and none may again.
 */

const root = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..');
const USES_REPLACEMENTS = /\breplacements\s*(:|,|\})/;

describe('SQL parameters', () => {
  it('pass as positional binds everywhere', () => {
    const files = globSync(['libs/shared/*/src/**/*.ts', 'apps/*/src/**/*.ts'], { cwd: root })
      .filter((file) => !file.endsWith('.spec.ts') && !file.includes('/dist/'))
      .filter((file) => USES_REPLACEMENTS.test(readFileSync(join(root, file), 'utf8')))
      .sort();

    expect(files).toEqual([]);
  });
});
