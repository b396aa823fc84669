import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { pathToFileURL } from 'node:url';
import { packClient, runNpm } from '../../../tools/pack-client.mjs';

/** The package's public face in Node (`@wms/client/node`: the main entry and uploads from paths), as its declarations describe it. */
export type ClientModule = typeof import('../src/node.js');

export interface PackedClient {
  module: ClientModule;
  /** The scratch folder the tarball was installed into (files of a test may go there too). */
  folder: string;
  remove(): Promise<void>;
}

/**
 * Packs the client as `npm run pack:client` does, installs the tarball into a scratch folder under the OS
 * temp folder as an integrator would (`npm install <tgz>`; its dependencies from npm's cache when it has
 * them, else from the registry) and imports its Node entry from there, through the package's own export map.
 */
export async function installPackedClient(): Promise<PackedClient> {
  const folder = await mkdtemp(join(tmpdir(), 'wms-client-'));
  await writeFile(join(folder, 'package.json'), JSON.stringify({ name: 'scratch', private: true, type: 'module' }));
  const tarball = await packClient({ destination: folder });
  await runNpm(['install', '--no-audit', '--no-fund', '--prefer-offline', '--no-package-lock', tarball], folder);
  const installed = join(folder, 'node_modules/@wms/client');
  const manifest = JSON.parse(await readFile(join(installed, 'package.json'), 'utf8')) as {
    exports: { './node': { import: string } };
  };
  const module = (await import(pathToFileURL(join(installed, manifest.exports['./node'].import)).href)) as ClientModule;
  return { module, folder, remove: () => rm(folder, { recursive: true, force: true }) };
}

/**
 * Type-checks a file of the scratch folder under `strict` as an integrator's project would, resolving
 * `@wms/client` from its node_modules (Node's types from the workspace's). skipLibCheck, as most projects
 * set it: the package's declarations were emitted from checked sources; what is checked here is that they
 * resolve through the export map and type the integrator's code.
 */
export async function compileInScratch(folder: string, file: string): Promise<{ ok: boolean; output: string }> {
  const require = createRequire(import.meta.url);
  const tsc = require.resolve('typescript/bin/tsc');
  const nodeTypes = join(require.resolve('@types/node/package.json'), '../..');
  const args = [
    tsc,
    '--strict',
    '--noEmit',
    '--skipLibCheck',
    '--module',
    'nodenext',
    '--moduleResolution',
    'nodenext',
  ];
  args.push('--target', 'es2022', '--typeRoots', nodeTypes, '--types', 'node', file);
  try {
    await promisify(execFile)(process.execPath, args, { cwd: folder });
    return { ok: true, output: '' };
  } catch (error) {
    return { ok: false, output: String((error as { stdout?: string }).stdout ?? error) };
  }
}

/**
 * Type-checks a file of the scratch folder as a browser (or Deno, or edge) project would: `lib` ES2022 and
 * DOM, no Node types at all (the scratch folder has no @types/node, and `types` is empty so none is looked
 * for), bundler resolution through the package's export map, and the installed declarations checked too
 * (no skipLibCheck), so a Node type leaking into the main entry's public types fails here.
 */
export async function compileForTheWeb(folder: string, file: string): Promise<{ ok: boolean; output: string }> {
  const tsconfig = {
    compilerOptions: {
      target: 'ES2022',
      lib: ['ES2022', 'DOM'],
      module: 'ESNext',
      moduleResolution: 'Bundler',
      types: [],
      strict: true,
      noEmit: true,
    },
    files: [file],
  };
  await writeFile(join(folder, 'tsconfig.web.json'), JSON.stringify(tsconfig, null, 2));
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  try {
    await promisify(execFile)(process.execPath, [tsc, '-p', 'tsconfig.web.json'], { cwd: folder });
    return { ok: true, output: '' };
  } catch (error) {
    return { ok: false, output: String((error as { stdout?: string }).stdout ?? error) };
  }
}
