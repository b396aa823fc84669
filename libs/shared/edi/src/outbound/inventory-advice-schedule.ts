import { unitOfWork, type Database, type Logger } from '@wms/platform';
import { PartnersRepository } from '../partners/index.js';
import type { EdiOutbound } from './edi-outbound.js';

/** Advices one pass writes at most; the next interval takes the rest. */
const ADVICES_PER_PASS = 500;

/**
 * The scheduled 846s: a pass of the maintenance queue (once per interval over all workers) claims one due
 * partner at a time (`next_inventory_advice_at` passed) with FOR UPDATE SKIP LOCKED and, in the claim's
 * transaction, writes its 846 (source `schedule`) and moves its time on by its interval: two passes at once
 * never write the same advice, and a pass that dies leaves the partner due for the next. An advice that
 * cannot be written is logged and its time moved on, so one partner's failure does not hold the others.
 */
export class InventoryAdviceSchedule {
  private readonly partners: PartnersRepository;

  constructor(
    private readonly db: Database,
    private readonly outbound: Pick<EdiOutbound, 'writeInventoryAdvice'>,
    private readonly logger?: Logger,
  ) {
    this.partners = new PartnersRepository(db);
  }

  /** Writes the due advices; resolves with how many were written and how many failed. */
  async runDue(): Promise<{ written: number; failed: number }> {
    const outcome = { written: 0, failed: 0 };
    while (outcome.written + outcome.failed < ADVICES_PER_PASS) {
      const claimed = await this.writeOne().catch(async (error: unknown) => {
        this.logger?.warn({ err: error }, 'scheduled 846 not written');
        return 'failed' as const;
      });
      if (claimed === 'none') break;
      outcome[claimed] += 1;
    }
    return outcome;
  }

  private async writeOne(): Promise<'written' | 'failed' | 'none'> {
    let failedPartner: string | null = null;
    try {
      return await unitOfWork(this.db, async (transaction) => {
        const [partner] = await this.partners.claimDueInventoryAdvice(1, transaction);
        if (!partner) return 'none';
        failedPartner = partner.id;
        await this.outbound.writeInventoryAdvice(partner, 'schedule', transaction);
        await this.partners.advanceInventoryAdvice(partner.id, transaction);
        return 'written';
      });
    } catch (error) {
      if (!failedPartner) throw error;
      this.logger?.warn(
        { err: error, partnerId: failedPartner },
        'scheduled 846 not written; next one at its interval',
      );
      const partnerId: string = failedPartner;
      await unitOfWork(this.db, (transaction) => this.partners.advanceInventoryAdvice(partnerId, transaction));
      return 'failed';
    }
  }
}
