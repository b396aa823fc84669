export { checkDependencies, waitForDependencies, type DependencyHealth } from './health.js';
export { startHealthServer } from './health-server.js';
