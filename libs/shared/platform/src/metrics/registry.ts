import { createHash, timingSafeEqual } from 'node:crypto';
import { Registry, collectDefaultMetrics, type Metric } from 'prom-client';
import { exportQueueMetrics, type ExportingQueue } from './queue-metrics.js';

export interface ProcessMetricsOptions {
  /** The module-level metrics this process moves (`gatewayMetrics`, `ingestMetrics`, `webhookMetrics`). */
  metrics: Metric[];
  /** Metrics of this process computed when scraped (outbox gauges). */
  scraped?: Metric[];
  /** Queues whose job counts this process exports. */
  queues?: ExportingQueue[];
  /** Node.js process metrics (memory, CPU, event-loop lag, GC); on by default. */
  processMetrics?: boolean;
}

/**
 * One process' metrics: its own registry (so two apps in one test process do not collide), Node.js
 * default metrics, and the queue counts BullMQ exports. Everything costly is computed at scrape time.
 */
export class ProcessMetrics {
  readonly registry = new Registry();
  private readonly queues: ExportingQueue[];

  constructor(options: ProcessMetricsOptions) {
    for (const metric of [...options.metrics, ...(options.scraped ?? [])]) this.registry.registerMetric(metric);
    if (options.processMetrics ?? true) collectDefaultMetrics({ register: this.registry });
    this.queues = options.queues ?? [];
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** The text exposition Prometheus reads: this registry, then the queues' own export. */
  async render(): Promise<string> {
    const [own, queues] = await Promise.all([this.registry.metrics(), exportQueueMetrics(this.queues)]);
    return queues ? `${own.trimEnd()}\n${queues}\n` : own;
  }
}

/**
 * Whether a scrape may read the metrics: always when no token is configured (development), else only
 * with `Authorization: Bearer <token>`, compared in constant time.
 */
export function metricsAccessAllowed(authorization: string | undefined, token: string | undefined): boolean {
  if (!token) return true;
  const match = authorization ? /^Bearer\s+(\S+)$/i.exec(authorization) : null;
  if (!match) return false;
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(match[1]!), digest(token));
}

/** What GET /metrics answers, for the gateway's Express route and the workers' plain HTTP server alike. */
export async function metricsResponse(
  metrics: ProcessMetrics,
  authorization: string | undefined,
  token: string | undefined,
): Promise<{ status: number; contentType: string; body: string; headers?: Record<string, string> }> {
  if (!metricsAccessAllowed(authorization, token)) {
    return {
      status: 401,
      contentType: 'text/plain; charset=utf-8',
      body: 'metrics need Authorization: Bearer <METRICS_TOKEN>\n',
      headers: { 'WWW-Authenticate': 'Bearer realm="metrics"' },
    };
  }
  return { status: 200, contentType: metrics.contentType, body: await metrics.render() };
}
