export { checkDependencies, waitForDependencies, HEALTH_TIMEOUTS, type DependencyHealth } from './health.js';
export { startHealthServer, type HealthServerMetrics } from './health-server.js';
