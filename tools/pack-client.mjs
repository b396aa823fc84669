// Builds the typed client (packages/client) on its own and packs it with `npm pack`: `npm run pack:client`
// prints the tarball's absolute path as its last line, for `npm install <path>` or a registry upload.
import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..');
export const CLIENT_DIR = join(root, 'packages/client');

/**
 * Runs npm: the one running this script when there is one (`npm run …` names it in npm_execpath), so the
 * npm of the Node in use packs and installs, else the npm on PATH.
 */
export function runNpm(args, cwd) {
  const npmCli = process.env.npm_execpath;
  if (npmCli && /npm-cli\.[cm]?js$/.test(npmCli)) return run(process.execPath, [npmCli, ...args], { cwd });
  return run('npm', args, { cwd });
}

/** Compiles the package with its own tsconfig, packs it into `destination` and answers the tarball's absolute path. */
export async function packClient({ destination = CLIENT_DIR } = {}) {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  await rm(join(CLIENT_DIR, 'dist'), { recursive: true, force: true });
  // The main entry is checked without Node's types first: it must compile for a browser, Deno or Bun.
  await run(process.execPath, [tsc, '-p', join(CLIENT_DIR, 'tsconfig.web.json')], { cwd: CLIENT_DIR });
  await run(process.execPath, [tsc, '-p', join(CLIENT_DIR, 'tsconfig.json')], { cwd: CLIENT_DIR });
  const { stdout } = await runNpm(['pack', '--json', '--pack-destination', resolve(destination)], CLIENT_DIR);
  const [packed] = JSON.parse(stdout);
  return join(resolve(destination), packed.filename);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const tarball = await packClient({ destination: process.argv[2] });
  console.log(tarball);
}
