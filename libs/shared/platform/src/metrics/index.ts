export * from './definitions.js';
export { ProcessMetrics, metricsAccessAllowed, metricsResponse, type ProcessMetricsOptions } from './registry.js';
export { exportQueueMetrics, mergeExpositions, type ExportingQueue } from './queue-metrics.js';
