#!/usr/bin/env node
// `npm run bench`: runs every tools/bench/*.bench.mjs in turn (or those named on the command line) and
// prints their figures. Loopback only; every load is bounded in requests and time. The soak and the data
// volume (minutes long each) run only when named: `npm run bench:soak`, `npm run bench:data`.
import { readdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const onlyWhenNamed = ['soak.bench.mjs', 'data.bench.mjs'];
const files = readdirSync(here)
  .filter((file) => file.endsWith('.bench.mjs'))
  .filter((file) =>
    wanted.length === 0 ? !onlyWhenNamed.includes(file) : wanted.some((name) => file.startsWith(name)),
  )
  .sort();

let failed = false;
for (const file of files) {
  // The machine's load beside each bench's figures: other work on the cores moves them.
  console.log(
    `\n=== ${file.replace('.bench.mjs', '')} === (load average ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')})`,
  );
  try {
    const bench = await import(pathToFileURL(join(here, file)).href);
    await bench.default();
  } catch (error) {
    failed = true;
    console.error(`bench ${file} failed:`, error);
  }
}
process.exit(failed ? 1 : 0);
