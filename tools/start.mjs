#!/usr/bin/env node
// Launcher behind `npm start`: prepares the environment and the database, then runs the apps.
//   node tools/start.mjs                 gateway + ingest worker + webhook worker, one process each
//   node tools/start.mjs <app>           one app in this process (gateway | ingest-worker | webhook-worker)
//   node tools/start.mjs migrate         create the database when missing, migrate, seed, exit
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const apps = ['gateway', 'ingest-worker', 'webhook-worker'];
const mode = process.argv[2] ?? 'all';
if (mode !== 'all' && mode !== 'migrate' && !apps.includes(mode)) {
  console.error(`Unknown mode "${mode}"; use one of: all, migrate, ${apps.join(', ')}`);
  process.exit(2);
}

const envFile = join(root, '.env');
if (!existsSync(envFile) && process.env.NODE_ENV !== 'production' && !process.env.JWT_SECRET) {
  // A fresh clone runs with no set-up; the secret is random, never a fixed default.
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const secret = Array.from(randomBytes(48), (byte) => alphabet[byte % alphabet.length]).join('');
  writeFileSync(envFile, `# Written by npm start on first run (development only).\nJWT_SECRET=${secret}\n`, { mode: 0o600 });
  console.log(`Wrote ${envFile} with a random JWT_SECRET (development only; set your own in production).`);
}
if (existsSync(envFile)) process.loadEnvFile(envFile);

const { loadConfig, ConfigError, createLogger, prepareDatabase } = await import('@wms/shared');

let config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
const logger = createLogger({ level: config.logLevel, name: 'launcher' });

try {
  await prepareDatabase(config, logger);
} catch (error) {
  logger.fatal({ err: error }, 'database preparation failed');
  process.exit(1);
}

if (mode === 'migrate') process.exit(0);

const mainOf = (app) => join(root, 'apps', app, 'dist', 'main.js');

if (mode !== 'all') {
  await import(pathToFileURL(mainOf(mode)).href);
} else {
  const children = apps.map((app) => ({ app, child: fork(mainOf(app), { stdio: 'inherit' }) }));
  let exiting = false;
  const stopAll = (signal) => {
    if (exiting) return;
    exiting = true;
    for (const { child } of children) if (child.exitCode === null) child.kill(signal);
  };
  process.on('SIGTERM', () => stopAll('SIGTERM'));
  process.on('SIGINT', () => stopAll('SIGTERM'));
  let worstCode = 0;
  await Promise.all(
    children.map(
      ({ app, child }) =>
        new Promise((resolve) =>
          child.on('exit', (code, signal) => {
            if (!exiting) logger.error({ app, code, signal }, 'app exited; stopping the others');
            worstCode = Math.max(worstCode, code ?? 1);
            stopAll('SIGTERM');
            resolve();
          }),
        ),
    ),
  );
  process.exit(exiting && worstCode === 0 ? 0 : worstCode || 1);
}
