#!/usr/bin/env node
// Completes package-lock.json for platform-specific optional packages that the registry this project
// installs from does not serve (e.g. darwin/win32 builds of @swc/core, msgpackr-extract and
// unrs-resolver). Without their entries `npm ci` refuses the lock file as out of sync; with an entry that
// names the package's os/cpu, npm skips it on every other platform without fetching it.
// Run after `npm install` changes the lock file:  node tools/complete-lockfile.mjs
import { readFileSync, writeFileSync } from 'node:fs';

const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(file, 'utf8'));
const packages = lock.packages;

const OS = {
  darwin: 'darwin',
  win32: 'win32',
  linux: 'linux',
  android: 'android',
  freebsd: 'freebsd',
  openharmony: 'openharmony',
};
const CPU = ['arm64', 'x64', 'ia32', 'arm', 'ppc64', 's390x', 'riscv64', 'loong64'];

function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  const os = parts.find((part) => OS[part]);
  const cpu = parts.find((part) => CPU.includes(part));
  if (!os || !cpu) return undefined;
  const libc = os === 'linux' ? parts.find((part) => /^(gnu|gnueabihf|musl|musleabihf)$/.test(part)) : undefined;
  return { os: [os], cpu: [cpu], ...(libc ? { libc: [libc.startsWith('musl') ? 'musl' : 'glibc'] } : {}) };
}

let added = 0;
for (const [path, meta] of Object.entries(packages)) {
  for (const [name, version] of Object.entries(meta.optionalDependencies ?? {})) {
    const nested = `${path ? `${path}/` : ''}node_modules/${name}`;
    if (packages[`node_modules/${name}`] || packages[nested]) continue;
    const platform = platformOf(name);
    if (!platform) continue;
    packages[`node_modules/${name}`] = { version, ...platform, optional: true, ...(meta.dev ? { dev: true } : {}) };
    added++;
  }
}
const sorted = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
);
lock.packages = sorted;
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`complete-lockfile: added ${added} platform entries`);
