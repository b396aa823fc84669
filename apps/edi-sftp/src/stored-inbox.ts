import { AppError, unitOfWork, type Database } from '@wms/platform';
import {
  InterchangesRepository,
  MailboxRepository,
  type EdiInbox,
  type Interchange,
  type TradingPartner,
} from '@wms/edi';

/**
 * The storing half of `EdiInbox.receive`: the upload becomes a `received` interchange of the partner and the
 * file `in/<name>`, in one transaction, so an upload is stored whole or not at all. Reading it (the ingest
 * worker's EDI queue) is the engine's: its own inbox, which does this and enqueues the read, takes this one's
 * place in main.ts.
 */
export class StoredInbox implements EdiInbox {
  private readonly interchanges: InterchangesRepository;
  private readonly mailbox: MailboxRepository;

  constructor(private readonly db: Database) {
    this.interchanges = new InterchangesRepository(db);
    this.mailbox = new MailboxRepository(db);
  }

  receive(
    partner: TradingPartner,
    upload: { source: 'sftp' | 'http'; fileName: string | null; content: Buffer },
  ): Promise<Interchange> {
    return unitOfWork(this.db, async (transaction) => {
      const interchange = await this.interchanges.insert(
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
      if (upload.fileName) {
        const fileId = await this.mailbox.put(
          { partnerId: partner.id, folder: 'in', name: upload.fileName, interchangeId: interchange.id },
          transaction,
        );
        if (!fileId)
          throw AppError.conflict('EDI_FILE_EXISTS', `in/${upload.fileName} exists; send the file under a new name`);
      }
      return interchange;
    });
  }
}
