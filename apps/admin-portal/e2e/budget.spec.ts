import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/** The first load of the portal: its entry script and every script that imports statically, gzipped. */
const DIST = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const INITIAL_JS_BUDGET_BYTES = 250 * 1024;

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}

function initialScripts(manifest: Record<string, ManifestChunk>): string[] {
  const entry = Object.keys(manifest).find((key) => manifest[key]!.isEntry);
  if (!entry) throw new Error('the build manifest names no entry');
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const imported of manifest[key]!.imports ?? []) visit(imported);
  };
  visit(entry);
  return [...seen].map((key) => manifest[key]!.file);
}

describe('admin portal build budget', () => {
  const manifestFile = join(DIST, '.vite', 'manifest.json');
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, ManifestChunk>;

  it('the JavaScript of the first page is at most 250 KB gzipped', () => {
    const files = initialScripts(manifest);
    const sizes = files.map((file) => gzipSync(readFileSync(join(DIST, file)), { level: 9 }).length);
    const total = sizes.reduce((sum, size) => sum + size, 0);

    expect(files.every((file) => file.endsWith('.js') && existsSync(join(DIST, file)))).toBe(true);
    expect(total).toBeLessThanOrEqual(INITIAL_JS_BUDGET_BYTES);
  });

  it('the chart library is not in the first load: it comes with the key detail page', () => {
    const initial = initialScripts(manifest).map((file) => readFileSync(join(DIST, file), 'utf8'));
    const chart = Object.values(manifest).find((chunk) => /TrafficChart/.test(chunk.file));

    expect(chart).toBeDefined();
    expect(initial.some((source) => source.includes('recharts'))).toBe(false);
  });
});
