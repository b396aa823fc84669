import { Gauge } from 'prom-client';
import type { Interchange } from '../interchanges/index.js';
import type { TradingPartner } from '../partners/index.js';

/** The 997 and TA1 we write are never acknowledged: they are acknowledgments themselves. */
const ACKNOWLEDGMENTS = new Set(['997', 'TA1']);

/**
 * Whether an outbound interchange waits for the partner's 997 past the partner's `ackOverdueHours`: the
 * `overdue` flag the portal shows on a partner's documents. False for inbound ones, acknowledged ones and our
 * own 997/TA1.
 */
export function isAcknowledgmentOverdue(
  interchange: Pick<Interchange, 'direction' | 'state' | 'setCodes' | 'createdAt'>,
  partner: Pick<TradingPartner, 'ackOverdueHours'>,
  now: Date = new Date(),
): boolean {
  if (interchange.direction !== 'out' || interchange.state !== 'sent') return false;
  if (interchange.setCodes.some((code) => ACKNOWLEDGMENTS.has(code))) return false;
  return new Date(interchange.createdAt).getTime() + partner.ackOverdueHours * 3_600_000 <= now.getTime();
}

/**
 * `wms_edi_outbound_unacknowledged{overdue}`: outbound interchanges waiting for a 997, overdue or not, read
 * from PostgreSQL when Prometheus scrapes. A failed read leaves the gauge unset for that scrape (a gap, not 0).
 */
export function ediOutboundGauges(read: () => Promise<{ overdue: number; waiting: number }>): Gauge[] {
  return [
    new Gauge({
      name: 'wms_edi_outbound_unacknowledged',
      help: "Outbound EDI interchanges without the partner's 997, by whether they are past its ack_overdue_hours",
      labelNames: ['overdue'],
      registers: [],
      async collect() {
        this.reset();
        const counts = await read().catch(() => undefined);
        if (!counts) return;
        this.set({ overdue: 'true' }, counts.overdue);
        this.set({ overdue: 'false' }, counts.waiting);
      },
    }),
  ];
}
