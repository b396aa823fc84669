import { unitOfWork, type Database, type UnitOfWork } from '@wms/platform';
import { InterchangesRepository, type Interchange } from '../interchanges/index.js';
import { MailboxRepository } from '../mailbox/index.js';
import { PartnersRepository, type TradingPartner } from '../partners/index.js';
import { writeInterchange, type SetBody, FUNCTIONAL_ID } from '../x12/index.js';
import { OutboundRepository } from './outbound.repository.js';

/** One transaction set to send and the document of ours it tells of. */
export interface OutboundDocument {
  set: SetBody;
  documentKind: string | null;
  documentRef: string | null;
}

export interface OutboundWrite {
  source: 'event' | 'schedule' | 'demand' | 'resend';
  /** The event the documents were made from: one interchange per partner and event (a resend aside). */
  sourceEventId?: string | null;
  resentFrom?: string | null;
  documents: OutboundDocument[];
  at?: Date;
  /** More writes of the same transaction (the audit entry of a resend). */
  alongside?: (interchange: Interchange, transaction: UnitOfWork) => Promise<void>;
}

/** What a write came to: the interchange, and whether this call wrote it (false: it was there already). */
export interface OutboundWritten {
  interchange: Interchange;
  created: boolean;
}

/** Thrown inside the unit of work to roll back the control numbers it took when the event's interchange exists. */
class AlreadyWritten extends Error {
  constructor(readonly interchange: Interchange) {
    super('already written');
  }
}

/** The mailbox name of an outbound interchange: `<set>_<ISA13>.x12`. */
export const outboundFileName = (setCode: string, isa13: string) => `${setCode}_${isa13}.x12`;

/**
 * Writes an outbound interchange in one unit of work: the partner's next ISA13 and GS06 (its row lock orders
 * concurrent writers across processes), the X12 text, the interchange (state `sent`), its sets and the file
 * `out/<set>_<ISA13>.x12`. Made from an event, it is written once: a retried or concurrent attempt finds the
 * interchange already there (after the lock, so it sees the other's commit) and rolls its numbers back.
 */
export class OutboundWriter {
  private readonly partners: PartnersRepository;
  private readonly interchanges: InterchangesRepository;
  private readonly outbound: OutboundRepository;
  private readonly mailbox: MailboxRepository;

  constructor(private readonly db: Database) {
    this.partners = new PartnersRepository(db);
    this.interchanges = new InterchangesRepository(db);
    this.outbound = new OutboundRepository(db);
    this.mailbox = new MailboxRepository(db);
  }

  async write(partner: TradingPartner, write: OutboundWrite): Promise<OutboundWritten> {
    const once = write.source !== 'resend' && write.sourceEventId ? write.sourceEventId : null;
    if (once) {
      const existing = await this.outbound.findByEvent(partner.id, once);
      if (existing) return { interchange: existing, created: false };
    }
    try {
      return await unitOfWork(this.db, (transaction) => this.writeIn(partner, write, transaction, once));
    } catch (error) {
      if (error instanceof AlreadyWritten) return { interchange: error.interchange, created: false };
      throw error;
    }
  }

  /**
   * The write in the caller's transaction (the 846 sweep's, which holds the partner's row): `once` is the
   * event id the interchange must be the only one of, null for none.
   */
  async writeIn(
    partner: TradingPartner,
    write: OutboundWrite,
    transaction: UnitOfWork,
    once: string | null = null,
  ): Promise<OutboundWritten> {
    const control = await this.partners.takeControlNumbers(partner.id, transaction);
    if (once) {
      const existing = await this.outbound.findByEvent(partner.id, once, transaction);
      if (existing) throw new AlreadyWritten(existing);
    }
    const sets = write.documents.map((document) => document.set);
    const text = writeInterchange(partner, control, sets, { at: write.at });
    const isa13 = String(control.interchange).padStart(9, '0');
    const fileName = outboundFileName(sets[0]!.code, isa13);
    const interchange = await this.interchanges.insert(
      {
        tenantId: partner.tenantId,
        partnerId: partner.id,
        direction: 'out',
        source: write.source,
        fileName,
        interchangeControl: isa13,
        setCodes: [...new Set(sets.map((set) => set.code))],
        raw: Buffer.from(text, 'utf8'),
        state: 'sent',
        sourceEventId: write.sourceEventId ?? null,
        resentFrom: write.resentFrom ?? null,
      },
      transaction,
    );
    await this.outbound.insertSets(
      write.documents.map((document, index) => ({
        interchangeId: interchange.id,
        tenantId: partner.tenantId,
        partnerId: partner.id,
        setCode: document.set.code,
        functionalId: FUNCTIONAL_ID[document.set.code]!,
        groupControl: String(control.group),
        setControl: String(index + 1).padStart(4, '0'),
        documentKind: document.documentKind,
        documentRef: document.documentRef,
      })),
      transaction,
    );
    const put = await this.mailbox.put(
      { partnerId: partner.id, folder: 'out', name: fileName, interchangeId: interchange.id },
      transaction,
    );
    // Only after the counter wrapped past a file the partner never took away.
    if (!put) throw new Error(`out/${fileName} exists already for trading partner ${partner.id}`);
    await write.alongside?.(interchange, transaction);
    return { interchange, created: true };
  }
}
