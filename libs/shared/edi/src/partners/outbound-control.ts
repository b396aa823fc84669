import type { UnitOfWork } from '@wms/platform';
import type { Interchange } from '../interchanges/index.js';
import type { TradingPartner } from './trading-partner.js';

/**
 * What the partners' administration needs of the outbound side (implemented once, in outbound/): kept here,
 * beside its user, so that the library's seams import the partners and never the other way round.
 */
/** Keeps a partner's outbound side (outbound/). */
export interface EdiOutboundControl {
  /** Makes, changes or removes the partner's own subscription to the events its outbound sets stand for. */
  syncSubscription(partner: TradingPartner, transaction: UnitOfWork): Promise<string | null>;
  /** Writes the partner's 846 now (on demand), in its out/ folder. */
  sendInventoryAdvice(partner: TradingPartner): Promise<Interchange>;
  /** Writes an outbound interchange again, with new control numbers, as a new file in out/. */
  resend(interchangeId: string, actorId: string | null): Promise<Interchange>;
}
