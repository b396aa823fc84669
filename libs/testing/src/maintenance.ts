import { createRedis, queuePrefix, settleWithin, type Config } from '@wms/platform';
import {
  maintenanceIntervals,
  maintenanceTasks,
  startMaintenance,
  type Maintenance,
  type MaintenanceTasks,
} from '@wms/setup';
import type { TestContext } from './test-context.js';

/**
 * Runs the maintenance queue's schedulers and a worker in this process over the context's database and key
 * prefix, as an ingest worker does. `maintenance` overrides the intervals; `tasks` replaces the passes
 * (a spec that counts them). Closed by ctx.close() only if the test does not close it first.
 */
export async function startTestMaintenance(
  ctx: TestContext,
  options: { maintenance?: Partial<Config['maintenance']>; tasks?: MaintenanceTasks } = {},
): Promise<Maintenance> {
  const config: Config = { ...ctx.config, maintenance: { ...ctx.config.maintenance, ...options.maintenance } };
  const connection = createRedis(config, 'worker', 'test-maintenance');
  const started = await startMaintenance({
    connection,
    prefix: queuePrefix(config),
    intervals: maintenanceIntervals(config),
    tasks: options.tasks ?? maintenanceTasks(ctx.runtime.db, config, ctx.runtime.logger),
    logger: ctx.runtime.logger,
  });
  let closed = false;
  const close = async (force = false) => {
    if (closed) return;
    closed = true;
    await settleWithin(started.close(force), 15_000);
    connection.disconnect();
  };
  ctx.onClose(() => close(true));
  return { ...started, close };
}
