import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { endsWithThisProcess } from './child-processes.js';
import { freePort } from './redis-servers.js';
import { waitFor } from './wait.js';

/** The repository root: the built apps are under apps/<app>/dist. */
const root = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..', '..', '..');

export type AppName = 'gateway' | 'ingest-worker' | 'webhook-worker' | 'edi-sftp';

/** A built app running as a process of its own, for tests that kill, restart or starve it. */
export interface AppProcess {
  child: ChildProcess;
  /** The gateway's base URL, or the worker's health probe's. */
  url: string;
  /** The EDI SFTP endpoint's own port (edi-sftp only). */
  sftpPort?: number;
  /** What the process printed so far (stdout and stderr). */
  output(): string;
  /** Sends a signal (SIGKILL: a crash, nothing flushed) and waits for the exit. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
  });
}

/**
 * Starts `apps/<app>/dist/main.js` over `env` on a free port (the gateway's PORT, a worker's health probe)
 * and resolves once it answers ready (within `readyWithinMs`).
 */
export async function startAppProcess(
  app: AppName,
  env: NodeJS.ProcessEnv,
  { readyWithinMs = 60_000 }: { readyWithinMs?: number } = {},
): Promise<AppProcess> {
  const port = await freePort();
  const portVariable = app === 'gateway' ? 'PORT' : 'WORKER_HEALTH_PORT';
  const sftpPort = app === 'edi-sftp' ? await freePort() : undefined;
  let output = '';
  // As tools/entrypoint.sh starts it: the tracing bootstrap first (it does nothing without an OTLP endpoint).
  const tracing = join(root, 'libs', 'shared', 'platform', 'dist', 'tracing', 'register.js');
  const child = endsWithThisProcess(
    spawn(process.execPath, ['--import', tracing, join(root, 'apps', app, 'dist', 'main.js')], {
      env: { ...env, [portVariable]: String(port), ...(sftpPort ? { EDI_SFTP_PORT: String(sftpPort) } : {}) },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const url = `http://127.0.0.1:${port}`;
  const answers = async () => {
    if (child.exitCode !== null) throw new Error(`${app} exited with ${child.exitCode}: ${output}`);
    try {
      return (await fetch(`${url}/health/ready`)).status === 200;
    } catch {
      return false;
    }
  };
  // A process migrates and seeds before it listens: on a loaded machine that takes a while.
  await waitFor(answers, readyWithinMs, `${app} to answer ready`).catch((error: Error) => {
    child.kill('SIGKILL');
    throw new Error(`${error.message}; its output:\n${output.slice(-2_000)}`);
  });
  return {
    child,
    url,
    sftpPort,
    output: () => output,
    async kill(signal = 'SIGKILL') {
      child.kill(signal);
      await exited(child);
    },
  };
}
