import type { ChildProcess } from 'node:child_process';

/**
 * Processes a test file started (app processes, private Redis servers) die with the Jest worker that started
 * them. A worker Jest ends early (it replaces one that grew past its memory limit, or one a run stops) never
 * reaches the file's afterAll, and a child left running would hold its ports and cores for the rest of the run.
 */
const running = new Set<ChildProcess>();
let watching = false;

function killAll(): void {
  for (const child of running) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  running.clear();
}

function watchOwnEnd(): void {
  if (watching) return;
  watching = true;
  process.on('exit', killAll);
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      killAll();
      process.kill(process.pid, signal);
    });
  }
}

/** Kills `child` when this process ends, however it ends short of SIGKILL. */
export function endsWithThisProcess<T extends ChildProcess>(child: T): T {
  watchOwnEnd();
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}
