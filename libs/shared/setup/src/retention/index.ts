export { RetentionRepository } from './retention.repository.js';
export { RetentionSweeper, RETENTION_BATCH, type SweepResult } from './retention.js';
