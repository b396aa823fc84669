export { gatewayProcessMetrics, ingestProcessMetrics, webhookProcessMetrics } from './processes.js';
