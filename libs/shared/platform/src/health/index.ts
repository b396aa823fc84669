export { checkDependencies, waitForDependencies, type DependencyHealth } from './health.js';
export { startHealthServer, type HealthServerMetrics } from './health-server.js';
