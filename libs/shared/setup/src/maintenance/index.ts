export {
  MAINTENANCE_JOBS,
  MAINTENANCE_JOB_OPTIONS,
  MAINTENANCE_QUEUE,
  createMaintenanceQueue,
  maintenanceIntervals,
  scheduleMaintenance,
  type MaintenanceJobName,
  type MaintenanceJobResult,
  type MaintenancePayload,
  type MaintenanceQueue,
} from './maintenance-queue.js';
export { maintenanceTasks, type MaintenanceTasks } from './maintenance-tasks.js';
export {
  startMaintenance,
  startMaintenanceWorker,
  type Maintenance,
  type MaintenanceWorker,
} from './maintenance-worker.js';
