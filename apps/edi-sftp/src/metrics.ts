import { Counter, Gauge } from 'prom-client';
import { ProcessMetrics } from '@wms/platform';

/** The endpoint's own metrics, on its health server's GET /metrics. */
export const sftpMetrics = {
  connections: new Gauge({
    name: 'wms_edi_sftp_connections',
    help: 'SSH connections open on the EDI SFTP endpoint',
    registers: [],
  }),
  logins: new Counter({
    name: 'wms_edi_sftp_logins_total',
    help: 'SFTP sign-in attempts of trading partners, by result (accepted, refused, throttled)',
    labelNames: ['result'] as const,
    registers: [],
  }),
};

export function ediSftpProcessMetrics(): ProcessMetrics {
  return new ProcessMetrics({ metrics: Object.values(sftpMetrics) });
}
