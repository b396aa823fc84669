import { AppError, unitOfWork, type Database, type Logger } from '@wms/platform';
import type { EdiInbox } from '../contracts.js';
import type { Interchange } from '../interchanges/index.js';
import { InterchangesRepository } from '../interchanges/index.js';
import { MailboxRepository } from '../mailbox/index.js';
import type { TradingPartner } from '../partners/index.js';
import { ediJob, type EdiQueue } from './edi.contract.js';
import { InboundRepository } from './inbound.repository.js';

/**
 * The way in of both SFTP and `POST /edi` (contracts.ts): the bytes are stored as a `received` interchange
 * (and the file `in/<name>` for an upload) with its tenant's turn in one transaction, then handed to the
 * `edi` queue. Redis away loses nothing: the dispatcher hands an interchange that did not get there.
 */
export class EdiInboxService implements EdiInbox {
  private readonly interchanges: InterchangesRepository;
  private readonly mailbox: MailboxRepository;
  private readonly inbound: InboundRepository;

  constructor(
    private readonly db: Database,
    private readonly queue: EdiQueue,
    private readonly logger: Logger,
  ) {
    this.interchanges = new InterchangesRepository(db);
    this.mailbox = new MailboxRepository(db);
    this.inbound = new InboundRepository(db);
  }

  async receive(
    partner: TradingPartner,
    upload: { source: 'sftp' | 'http'; fileName: string | null; content: Buffer },
  ): Promise<Interchange> {
    if (partner.status !== 'active')
      throw new AppError('EDI_PARTNER_DISABLED', `Trading partner ${partner.name} is disabled`);
    if (upload.content.length === 0) throw AppError.validation('The interchange is empty');
    const { interchange, turn } = await unitOfWork(this.db, async (transaction) => {
      const stored = await this.interchanges.insert(
        {
          tenantId: partner.tenantId,
          partnerId: partner.id,
          direction: 'in',
          source: upload.source,
          fileName: upload.fileName,
          interchangeControl: null,
          setCodes: [],
          raw: upload.content,
          state: 'received',
        },
        transaction,
      );
      if (upload.source === 'sftp' && upload.fileName) {
        const put = await this.mailbox.put(
          { partnerId: partner.id, folder: 'in', name: upload.fileName, interchangeId: stored.id },
          transaction,
        );
        if (!put) throw new AppError('EDI_FILE_EXISTS', `in/${upload.fileName} exists`);
      }
      return { interchange: stored, turn: await this.inbound.queueTurn(stored.id, partner.tenantId, transaction) };
    });
    try {
      const job = ediJob({ id: interchange.id, tenantId: partner.tenantId, turn });
      await this.queue.add(job.name, job.data, job.opts);
    } catch (error) {
      this.logger.warn(
        { err: error, interchangeId: interchange.id },
        'EDI interchange stored; the dispatcher queues it',
      );
      await this.inbound.notDispatched(interchange.id).catch(() => undefined);
    }
    return interchange;
  }
}
