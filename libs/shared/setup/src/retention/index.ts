export { RetentionSweeper, RETENTION_BATCH, type SweepResult } from './retention.js';
