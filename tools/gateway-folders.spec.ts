import { globSync, readFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { LAYERS as GATEWAY_PARTS } from './gateway-layers.mjs';

/**
 * The gateway's folders in their order, lowest first (docs/adr/0064-gateway-request-path.md): the HTTP edge
 * (guards, the typed caller, the answer pipeline, the Express adapter); the integration API; the admin routes;
 * the admin API's document. A folder's sources import only from folders below it (and the gateway's service
 * graph, `services.ts`); nothing imports the app that mounts them. The folders in INDEXED are met through
 * their `index.ts` by every source outside them; inside a folder, its files import each other directly.
 */

const root = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..');
/** The folders among the gateway's parts (tools/gateway-layers.mjs keeps their order). */
const LAYERS = GATEWAY_PARTS.filter((part) => !part.endsWith('.ts'));
const RELATIVE_IMPORT = /(?:from|import)\s+'\.\.\/([^']+)'/g;
const INDEXED = ['http', 'integration'];
const GATEWAY = 'apps/gateway/src';

/** Each gateway source (not spec) in a layer folder, with the targets of its imports that leave the folder. */
function imports(): Array<{ file: string; layer: string; target: string }> {
  return globSync(['apps/gateway/src/*/*.ts'], { cwd: root })
    .filter((file) => !file.endsWith('.spec.ts'))
    .sort()
    .flatMap((file) => {
      const layer = file.split('/')[3]!;
      const text = readFileSync(join(root, file), 'utf8');
      return [...text.matchAll(RELATIVE_IMPORT)].map((match) => ({ file, layer, target: match[1]! }));
    })
    .filter(({ layer }) => LAYERS.includes(layer));
}

/** Each gateway source (not spec), the root files among them, with the gateway path of each relative import. */
function gatewayImports(): Array<{ file: string; target: string }> {
  const FROM = /\bfrom\s+'(\.\.?\/[^']+)'/g;
  return globSync([`${GATEWAY}/*.ts`, `${GATEWAY}/*/*.ts`], { cwd: root })
    .filter((file) => !file.endsWith('.spec.ts'))
    .sort()
    .flatMap((file) =>
      [...readFileSync(join(root, file), 'utf8').matchAll(FROM)].map((match) => ({
        file,
        target: posix.relative(GATEWAY, posix.join(dirname(file), match[1]!)),
      })),
    );
}

const folderOf = (path: string) => (path.includes('/') ? path.split('/')[0]! : null);

describe("the gateway's folders", () => {
  it('import only downward', () => {
    const upward = imports().filter(({ layer, target }) => {
      const folder = target.includes('/') ? target.split('/')[0]! : null;
      if (folder === null) return target !== 'services.js';
      return !LAYERS.includes(folder) || LAYERS.indexOf(folder) >= LAYERS.indexOf(layer);
    });
    expect(upward.map(({ file, target }) => `${file} → ${target}`)).toEqual([]);
  });

  it('are all in the order', () => {
    const folders = new Set(globSync(['apps/gateway/src/*/'], { cwd: root }).map((dir) => dir.split('/')[3]));
    expect([...folders].filter((folder) => folder !== 'conformance' && !LAYERS.includes(folder!))).toEqual([]);
  });

  it('meet through their index', () => {
    const pastTheIndex = gatewayImports().filter(({ file, target }) => {
      const folder = folderOf(target);
      return (
        folder !== null &&
        INDEXED.includes(folder) &&
        folder !== folderOf(posix.relative(GATEWAY, file)) &&
        target !== `${folder}/index.js`
      );
    });
    expect(pastTheIndex.map(({ file, target }) => `${file} → ${target}`)).toEqual([]);
  });
});
