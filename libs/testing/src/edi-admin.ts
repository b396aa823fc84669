import {
  InterchangesRepository,
  type EdiOutboundControl,
  type Interchange,
  type NewInterchange,
  type TradingPartner,
} from '@wms/edi';
import { unitOfWork, type Database } from '@wms/platform';

/**
 * The outbound side as the partners' specs need it: it records every sync, and a resend or an 846 on demand is
 * a new outbound interchange row (as the real one's is), so the admin's reads and audit can be checked.
 */
export class RecordingEdiOutbound implements EdiOutboundControl {
  readonly synced: Array<{ id: string; status: string; outboundSets: string[] }> = [];
  readonly resent: Array<{ interchangeId: string; actorId: string | null }> = [];
  private readonly interchanges: InterchangesRepository;

  constructor(private readonly db: Database) {
    this.interchanges = new InterchangesRepository(db);
  }

  async syncSubscription(partner: TradingPartner): Promise<string | null> {
    this.synced.push({ id: partner.id, status: partner.status, outboundSets: [...partner.outboundSets] });
    return partner.subscriptionId;
  }

  async sendInventoryAdvice(partner: TradingPartner): Promise<Interchange> {
    return this.write({
      tenantId: partner.tenantId,
      partnerId: partner.id,
      direction: 'out',
      source: 'demand',
      fileName: `846-${Date.now()}.x12`,
      interchangeControl: '000000900',
      setCodes: ['846'],
      raw: Buffer.from(sampleInterchange('846')),
      state: 'sent',
    });
  }

  async resend(interchangeId: string, actorId: string | null): Promise<Interchange> {
    this.resent.push({ interchangeId, actorId });
    const first = (await this.interchanges.find(interchangeId))!;
    const raw = (await this.interchanges.raw(interchangeId))!;
    return this.write({
      tenantId: first.tenantId,
      partnerId: first.partnerId,
      direction: 'out',
      source: 'resend',
      fileName: `resend-${first.fileName ?? first.id}`,
      interchangeControl: '000000901',
      setCodes: first.setCodes,
      raw,
      state: 'sent',
      resentFrom: first.id,
    });
  }

  private write(row: NewInterchange): Promise<Interchange> {
    return unitOfWork(this.db, (transaction) => this.interchanges.insert(row, transaction));
  }
}

/** A small whole interchange of one set, written with * > ~ and a line break after each segment. */
export function sampleInterchange(setCode: string, control = '000000042', elements = ['W06', 'N', 'ORD-1']): string {
  const isa = `ISA*00*          *00*          *ZZ*PARTNER        *ZZ*WAREHOUSE      *261202*0430*U*00401*${control}*0*P*>~`;
  return [
    isa,
    `GS*SW*PARTNER*WAREHOUSE*20261202*0430*42*X*004010~`,
    `ST*${setCode}*0001~`,
    `${elements.join('*')}~`,
    'SE*3*0001~',
    'GE*1*42~',
    `IEA*1*${control}~`,
  ].join('\n');
}

let controlSequence = 100;

/**
 * Inserts an interchange of the partner straight into the database, as the engine or the outbound side would;
 * each with an ISA13 of its own unless one is given (inbound ones are unique per partner and ISA13).
 */
export async function insertInterchange(
  db: Database,
  partner: { id: string; tenantId: string },
  row: Partial<NewInterchange> & Pick<NewInterchange, 'direction' | 'state' | 'setCodes'>,
  createdAt?: Date,
): Promise<Interchange> {
  const interchanges = new InterchangesRepository(db);
  const inserted = await unitOfWork(db, (transaction) =>
    interchanges.insert(
      {
        tenantId: partner.tenantId,
        partnerId: partner.id,
        source: row.direction === 'in' ? 'sftp' : 'event',
        fileName: `${row.setCodes[0]}-${Math.random().toString(36).slice(2)}.x12`,
        interchangeControl: String(++controlSequence).padStart(9, '0'),
        raw: Buffer.from(sampleInterchange(row.setCodes[0]!)),
        ...row,
      },
      transaction,
    ),
  );
  if (createdAt) {
    await db.sequelize.query(`UPDATE edi_interchanges SET created_at = $2 WHERE id = $1`, {
      bind: [inserted.id, createdAt],
    });
  }
  return inserted;
}
