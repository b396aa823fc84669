import { createTestContext, startTestMaintenance, waitFor, type TestContext } from '@wms/testing';
import { MAINTENANCE_JOBS, type MaintenanceJobName } from './maintenance-queue.js';
import type { MaintenanceTasks } from './maintenance-tasks.js';

const LONG = 3_600_000;
const EVERY = 400;

/** Passes that only count their runs, the second worker's beside the first's. */
function countingTasks(
  runs: Array<{ name: MaintenanceJobName; at: number }>,
  fail?: (name: MaintenanceJobName) => boolean,
): MaintenanceTasks {
  const task = (name: MaintenanceJobName) => async () => {
    runs.push({ name, at: Date.now() });
    if (fail?.(name)) throw new Error(`${name} failed on purpose`);
    return { runs: runs.length };
  };
  return {
    'retention-sweep': task('retention-sweep'),
    'imports-purge': task('imports-purge'),
    'request-log-maintenance': task('request-log-maintenance'),
    'webhook-disable-sweep': task('webhook-disable-sweep'),
    'edi-inventory-advice': task('edi-inventory-advice'),
  };
}

const intervals = (retentionSweepMs: number) => ({
  retentionSweepMs,
  importPurgeMs: LONG,
  requestLogMaintenanceMs: LONG,
  webhookDisableSweepMs: LONG,
  ediInventoryAdviceMs: LONG,
});

describe('maintenance job schedulers', () => {
  let ctx: TestContext;

  beforeEach(async () => {
    ctx = await createTestContext('maintenance');
  });
  afterEach(async () => {
    await ctx.close();
  });

  it('when two workers run the schedulers, each interval runs its job once over both', async () => {
    const runs: Array<{ name: MaintenanceJobName; at: number }> = [];
    const tasks = countingTasks(runs);

    const first = await startTestMaintenance(ctx, { maintenance: intervals(EVERY), tasks });
    const second = await startTestMaintenance(ctx, { maintenance: intervals(EVERY), tasks });
    await waitFor(() => runs.filter((run) => run.name === 'retention-sweep').length >= 5, 15_000, 'five sweeps');
    await Promise.all([first.worker.close(), second.worker.close()]);

    const sweeps = runs.filter((run) => run.name === 'retention-sweep').map((run) => run.at);
    // The first job runs at once, the next ones on the interval's boundaries: gaps count from the second.
    const gaps = sweeps.slice(2).map((at, index) => at - sweeps[index + 1]!);
    const completed = (await first.queue.getJobs(['completed'])).filter((job) => job.name === 'retention-sweep');
    expect(await first.queue.getJobSchedulersCount()).toBe(MAINTENANCE_JOBS.length);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(EVERY * 0.75);
    expect(completed).toHaveLength(sweeps.length);
    expect(new Set(completed.map((job) => job.id)).size).toBe(sweeps.length);
  });

  it('when a pass fails, the queue tries it again and it completes', async () => {
    const runs: Array<{ name: MaintenanceJobName; at: number }> = [];
    let failed = false;
    const tasks = countingTasks(runs, (name) => name === 'retention-sweep' && !failed && (failed = true));

    const maintenance = await startTestMaintenance(ctx, { maintenance: intervals(LONG), tasks });
    const job = await waitFor(
      async () => (await maintenance.queue.getJobs(['completed'])).find((found) => found.name === 'retention-sweep'),
      (found) => found !== undefined,
      15_000,
      'the retried sweep completed',
    );

    expect(failed).toBe(true);
    expect(job!.attemptsMade).toBe(2);
    expect(runs.filter((run) => run.name === 'retention-sweep')).toHaveLength(2);
  });
});
