export {
  checkDependencies,
  checkReadiness,
  waitForDependencies,
  HEALTH_TIMEOUTS,
  type DependencyHealth,
  type Readiness,
} from './health.js';
export { startHealthServer, type HealthServerMetrics } from './health-server.js';
