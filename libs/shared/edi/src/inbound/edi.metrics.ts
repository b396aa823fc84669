import { Counter, Histogram, type Metric } from 'prom-client';
import { JOB_BUCKETS } from '@wms/platform';

/** The inbound engine's metrics (the ingest worker exports them); the names are an interface. */
export const ediInterchanges = new Counter({
  name: 'wms_edi_interchanges_total',
  help: 'EDI interchanges read or written, by direction and the state they ended in (in: accepted, partially_accepted, rejected, unreadable, duplicate)',
  labelNames: ['direction', 'state'] as const,
  registers: [],
});

export const ediInboundSets = new Counter({
  name: 'wms_edi_inbound_sets_total',
  help: 'Inbound transaction sets read, by set (940, 943, 856, 997) and outcome (accepted, rejected, repeated)',
  labelNames: ['set', 'outcome'] as const,
  registers: [],
});

export const ediInterchangeDuration = new Histogram({
  name: 'wms_edi_interchange_duration_seconds',
  help: 'Time the ingest worker took to read one inbound interchange and write what it holds',
  buckets: JOB_BUCKETS,
  registers: [],
});

export const ediInboundMetrics: Metric[] = [ediInterchanges, ediInboundSets, ediInterchangeDuration];
