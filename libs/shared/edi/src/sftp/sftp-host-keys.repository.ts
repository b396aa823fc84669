import type { Database } from '@wms/platform';

/** The SFTP endpoint's generated host keys (`edi_sftp_host_keys`), for deployments without EDI_SFTP_HOST_KEYS. */
export class SftpHostKeysRepository {
  constructor(private readonly db: Database) {}

  /**
   * The private key stored under `name`; the first caller stores `generated`. Replicas starting together
   * agree: the one insert that lands wins and every caller reads it back.
   */
  async keep(name: string, generated: string): Promise<string> {
    await this.db.sequelize.query(
      `INSERT INTO edi_sftp_host_keys (name, private_key) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`,
      { bind: [name, generated] },
    );
    const [rows] = (await this.db.sequelize.query(
      `SELECT private_key AS "privateKey" FROM edi_sftp_host_keys WHERE name = $1`,
      { bind: [name] },
    )) as [Array<{ privateKey: string }>, unknown];
    return rows[0]!.privateKey;
  }
}
