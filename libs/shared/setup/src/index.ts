/** Setup and housekeeping: database preparation before a process starts (migrations under a lock, the seed routine) and the retention sweeps that keep tables bounded. */
export * from './bootstrap/index.js';
export * from './metrics/index.js';
export * from './retention/index.js';
