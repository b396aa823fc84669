#!/usr/bin/env node
// Launcher behind `npm start`, the image and compose (always through tools/entrypoint.sh, which sizes the
// heap): prepares the environment and the database, then runs the apps.
//   node tools/start.mjs                 gateway + ingest worker + webhook worker + EDI SFTP endpoint, one process each
//   node tools/start.mjs <app>           one app in this process (gateway | ingest-worker | webhook-worker | edi-sftp)
//   node tools/start.mjs migrate         create the database when missing, migrate, seed, exit
//                                        (with MIGRATE_ON_START=false, the apps leave this to such a run, e.g.
//                                        a release's migration Job, and wait until it has been done)
//   node tools/start.mjs secrets:reseal  migrate, then re-seal every stored secret under the first key of
//                                        SECRETS_ENCRYPTION_KEYS (after putting a new key first), exit
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const apps = ['gateway', 'ingest-worker', 'webhook-worker', 'edi-sftp'];
const mode = process.argv[2] ?? 'all';
const tools = ['migrate', 'secrets:reseal'];
if (mode !== 'all' && !tools.includes(mode) && !apps.includes(mode)) {
  console.error(`Unknown mode "${mode}"; use one of: all, ${tools.join(', ')}, ${apps.join(', ')}`);
  process.exit(2);
}

const envFile = join(root, '.env');
if (!existsSync(envFile) && process.env.NODE_ENV !== 'production' && !process.env.JWT_SECRET) {
  // A fresh clone runs with no set-up; the secret is random, never a fixed default.
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const secret = Array.from(randomBytes(48), (byte) => alphabet[byte % alphabet.length]).join('');
  const sealingKey = `k1:${randomBytes(32).toString('base64')}`;
  writeFileSync(
    envFile,
    `# Written by npm start on first run (development only).\nJWT_SECRET=${secret}\nSECRETS_ENCRYPTION_KEYS=${sealingKey}\n`,
    { mode: 0o600 },
  );
  console.log(
    `Wrote ${envFile} with a random JWT_SECRET and SECRETS_ENCRYPTION_KEYS (development only; set your own in production).`,
  );
}
if (existsSync(envFile)) process.loadEnvFile(envFile);

const { loadConfig, ConfigError, createLogger, createSequelize } = await import('@wms/platform');
const { prepareDatabase, waitForSchema } = await import('@wms/setup');
const { resealSecrets, SecretBox } = await import('@wms/webhooks');

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

/** Waits for a migrate run to bring the schema up to date; a stop signal meanwhile (a rollout) ends the process. */
async function waitForMigrateRun() {
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  try {
    await waitForSchema(config, logger, { signal: stop.signal });
  } catch (error) {
    if (stop.signal.aborted) process.exit(0);
    throw error;
  } finally {
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
  }
}

// An app migrates at start unless MIGRATE_ON_START=false; the tools always do.
try {
  if (tools.includes(mode) || config.migrateOnStart) await prepareDatabase(config, logger);
  else await waitForMigrateRun();
} catch (error) {
  logger.fatal({ err: error }, 'database preparation failed');
  process.exit(1);
}

if (mode === 'migrate') process.exit(0);
if (mode === 'secrets:reseal') {
  const sequelize = createSequelize({ ...config, databasePoolMax: 2 });
  const box = SecretBox.fromConfig(config);
  const report = await resealSecrets({ sequelize }, box);
  await sequelize.close();
  logger.info({ ...report, currentKeyId: box.currentKeyId }, 'stored secrets re-sealed under the current key');
  process.exit(report.unreadable.length ? 1 : 0);
}

const mainOf = (app) => join(root, 'apps', app, 'dist', 'main.js');

if (mode !== 'all') {
  await import(pathToFileURL(mainOf(mode)).href);
} else {
  // Each worker gets a health and metrics port of its own: WORKER_HEALTH_PORT (or the gateway's port + 1)
  // for the ingest worker, the next one for the webhook worker, the one after for the EDI SFTP endpoint.
  const healthBase = config.workerHealthPort || config.port + 1;
  const healthPorts = { 'ingest-worker': healthBase, 'webhook-worker': healthBase + 1, 'edi-sftp': healthBase + 2 };
  logger.info(
    { gateway: config.port, ediSftp: config.ediSftp.port, ...healthPorts },
    'ports: gateway API, EDI SFTP, worker health and /metrics',
  );
  const children = apps.map((app) => ({
    app,
    child: fork(mainOf(app), {
      // The entrypoint's heap limit (a share of the container's memory for each app) goes to every app.
      execArgv: process.execArgv,
      stdio: 'inherit',
      env: app in healthPorts ? { ...process.env, WORKER_HEALTH_PORT: String(healthPorts[app]) } : process.env,
    }),
  }));
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
