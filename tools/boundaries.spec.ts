import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

// The dependency rules of the workspace (STYLE.md): apps → libs, never the reverse; an app never imports
// another app; production code never imports the test harness. madge (in `npm test`) checks for cycles.
const root = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'dist' || name === 'node_modules' ? [] : sourceFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.spec.ts') ? [path] : [];
  });
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]/g)].map((match) => match[1]!);
}

const apps = ['gateway', 'ingest-worker', 'webhook-worker'];

describe('module boundaries', () => {
  it('libs/shared imports no app and not the test harness', () => {
    const offending = sourceFiles(join(root, 'libs/shared/src')).flatMap((file) =>
      importsOf(file)
        .filter((target) => /^@wms\/(gateway|ingest-worker|webhook-worker|testing)$/.test(target) || target.includes('/apps/'))
        .map((target) => `${relative(root, file)} imports ${target}`),
    );

    expect(offending).toEqual([]);
  });

  it.each(apps)('apps/%s imports no other app, not the test harness, and libs only through their public index', (app) => {
    const offending = sourceFiles(join(root, 'apps', app, 'src')).flatMap((file) =>
      importsOf(file)
        .filter(
          (target) =>
            (/^@wms\//.test(target) && target !== '@wms/shared') ||
            target.includes('libs/') ||
            apps.some((other) => other !== app && target.includes(`/${other}/`)),
        )
        .map((target) => `${relative(root, file)} imports ${target}`),
    );

    expect(offending).toEqual([]);
  });
});
