/** Setup and housekeeping: database preparation before a process starts (migrations under a lock, the seed routine) the retention sweeps that keep tables bounded, and the maintenance queue that schedules them once over all workers. */
export * from './bootstrap/index.js';
export * from './maintenance/index.js';
export * from './metrics/index.js';
export * from './retention/index.js';
