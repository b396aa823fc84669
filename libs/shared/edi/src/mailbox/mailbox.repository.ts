import type { Database, UnitOfWork } from '@wms/platform';

/** The folders a partner's SFTP account sees: what it sends, what we wrote for it, what is done with. */
export type MailboxFolder = 'in' | 'out' | 'archive';
export const MAILBOX_FOLDERS: readonly MailboxFolder[] = ['in', 'out', 'archive'];

/** A file of a partner's mailbox: a name in a folder for one interchange, whose bytes it shows. */
export interface MailboxFile {
  id: string;
  partnerId: string;
  folder: MailboxFolder;
  name: string;
  interchangeId: string;
  sizeBytes: number;
  createdAt: Date;
  updatedAt: Date;
}

const FILE_COLUMNS = `
  f.id, f.partner_id AS "partnerId", f.folder, f.name, f.interchange_id AS "interchangeId",
  i.size_bytes AS "sizeBytes", f.created_at AS "createdAt", f.updated_at AS "updatedAt"`;

/** A partner's mailbox (`edi_mailbox_files`): names over interchanges, so each file's bytes are stored once. */
export class MailboxRepository {
  constructor(private readonly db: Database) {}

  /** Puts an interchange into a folder under a name; a name taken in that folder is refused (null). */
  async put(
    file: { partnerId: string; folder: MailboxFolder; name: string; interchangeId: string },
    transaction: UnitOfWork,
  ): Promise<string | null> {
    const [rows] = (await this.db.sequelize.query(
      `INSERT INTO edi_mailbox_files (partner_id, folder, name, interchange_id) VALUES ($1, $2, $3, $4)
       ON CONFLICT ON CONSTRAINT edi_mailbox_files_name DO NOTHING
       RETURNING id`,
      { bind: [file.partnerId, file.folder, file.name, file.interchangeId], transaction },
    )) as [Array<{ id: string }>, unknown];
    return rows[0]?.id ?? null;
  }

  async list(partnerId: string, folder: MailboxFolder): Promise<MailboxFile[]> {
    const [rows] = (await this.db.sequelize.query(
      `SELECT ${FILE_COLUMNS} FROM edi_mailbox_files f JOIN edi_interchanges i ON i.id = f.interchange_id
        WHERE f.partner_id = $1 AND f.folder = $2 ORDER BY f.name`,
      { bind: [partnerId, folder] },
    )) as [MailboxFile[], unknown];
    return rows;
  }

  async find(partnerId: string, folder: MailboxFolder, name: string): Promise<MailboxFile | null> {
    const [rows] = (await this.db.sequelize.query(
      `SELECT ${FILE_COLUMNS} FROM edi_mailbox_files f JOIN edi_interchanges i ON i.id = f.interchange_id
        WHERE f.partner_id = $1 AND f.folder = $2 AND f.name = $3`,
      { bind: [partnerId, folder, name] },
    )) as [MailboxFile[], unknown];
    return rows[0] ?? null;
  }

  /** A file's bytes (its interchange's). */
  async content(fileId: string): Promise<Buffer | null> {
    const [rows] = (await this.db.sequelize.query(
      `SELECT i.raw FROM edi_mailbox_files f JOIN edi_interchanges i ON i.id = f.interchange_id WHERE f.id = $1`,
      { bind: [fileId] },
    )) as [Array<{ raw: Buffer }>, unknown];
    return rows[0]?.raw ?? null;
  }

  /** Moves (or renames) a file; false when it is gone or the target name is taken. */
  async move(
    partnerId: string,
    from: { folder: MailboxFolder; name: string },
    to: { folder: MailboxFolder; name: string },
    transaction?: UnitOfWork,
  ): Promise<boolean> {
    const [rows] = (await this.db.sequelize.query(
      `UPDATE edi_mailbox_files f SET folder = $4, name = $5, updated_at = now()
        WHERE f.partner_id = $1 AND f.folder = $2 AND f.name = $3
          AND NOT EXISTS (SELECT 1 FROM edi_mailbox_files t WHERE t.partner_id = $1 AND t.folder = $4 AND t.name = $5)
        RETURNING f.id`,
      { bind: [partnerId, from.folder, from.name, to.folder, to.name], transaction },
    )) as [Array<{ id: string }>, unknown];
    return rows.length > 0;
  }

  /** Moves an interchange's file from in/ to archive/ once it has been read (the partner sees it done). */
  async archiveInterchange(interchangeId: string, transaction: UnitOfWork): Promise<void> {
    await this.db.sequelize.query(
      `UPDATE edi_mailbox_files f
          SET folder = 'archive', updated_at = now(),
              name = CASE WHEN EXISTS (SELECT 1 FROM edi_mailbox_files t
                                        WHERE t.partner_id = f.partner_id AND t.folder = 'archive' AND t.name = f.name)
                          THEN f.name || '.' || left(f.id::text, 8) ELSE f.name END
        WHERE f.interchange_id = $1 AND f.folder = 'in'`,
      { bind: [interchangeId], transaction },
    );
  }

  /** Removes a name; the interchange (the document's record) stays. False when there was none. */
  async remove(partnerId: string, folder: MailboxFolder, name: string): Promise<boolean> {
    const [rows] = (await this.db.sequelize.query(
      `DELETE FROM edi_mailbox_files f WHERE f.partner_id = $1 AND f.folder = $2 AND f.name = $3 RETURNING f.id`,
      { bind: [partnerId, folder, name] },
    )) as [Array<{ id: string }>, unknown];
    return rows.length > 0;
  }
}
