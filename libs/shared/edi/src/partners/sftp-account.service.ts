import type { Principal } from '@wms/identity';
import { AppError, unitOfWork, validate, type Database } from '@wms/platform';
import { addPublicKeySchema } from './partner.schema.js';
import type { TradingPartnersService } from './partners.service.js';
import { describePublicKey, newSftpPassword, publicKeyLine, type SftpPublicKey } from './sftp-credentials.js';

/** At most this many public keys per SFTP account. */
export const SFTP_KEYS_MAX = 20;

/** The SFTP account a partner logs in with: a password shown once, public keys shown by fingerprint. */
export class SftpAccountService {
  constructor(
    private readonly db: Database,
    private readonly partners: TradingPartnersService,
    private readonly bcryptRounds: number,
  ) {}

  /**
   * A new password for the account, in this answer only (its bcrypt hash is stored, the previous one stops
   * working); the audit entry says that it changed, never what it is.
   */
  async newPassword(id: string, actor: Principal): Promise<{ username: string; password: string }> {
    // Hashed before the transaction: bcrypt's time is not spent holding the row's lock.
    const { password, hash } = await newSftpPassword(this.bcryptRounds);
    return unitOfWork(this.db, async (transaction) => {
      const partner = await this.partners.visible(id, actor, transaction);
      await this.partners.repository.setPasswordHash(id, hash, transaction);
      await this.partners.record(
        'edi_partner.sftp_password_set',
        partner,
        actor,
        { sftpPassword: { replaced: partner.sftpPasswordSet } },
        transaction,
      );
      return { username: partner.sftpUsername!, password };
    });
  }

  async addKey(id: string, body: unknown, actor: Principal): Promise<SftpPublicKey> {
    const { publicKey } = validate<{ publicKey: string }>(addPublicKeySchema, body);
    const { line, key } = publicKeyLine(publicKey);
    return unitOfWork(this.db, async (transaction) => {
      const partner = await this.partners.visible(id, actor, transaction);
      const known = partner.sftpPublicKeys.map(describePublicKey);
      if (known.some(({ fingerprint }) => fingerprint === key.fingerprint)) {
        throw AppError.conflict('SFTP_KEY_EXISTS', `The account already has the key ${key.fingerprint}`);
      }
      if (known.length >= SFTP_KEYS_MAX) {
        throw AppError.conflict('SFTP_KEYS_LIMIT', `An SFTP account holds at most ${SFTP_KEYS_MAX} public keys`);
      }
      await this.partners.repository.setPublicKeys(id, [...partner.sftpPublicKeys, line], transaction);
      await this.partners.record('edi_partner.sftp_key_added', partner, actor, { publicKey: key }, transaction);
      return key;
    });
  }

  async removeKey(id: string, fingerprint: string, actor: Principal): Promise<void> {
    await unitOfWork(this.db, async (transaction) => {
      const partner = await this.partners.visible(id, actor, transaction);
      const kept = partner.sftpPublicKeys.filter((line) => describePublicKey(line).fingerprint !== fingerprint);
      if (kept.length === partner.sftpPublicKeys.length) {
        throw AppError.notFound(`The SFTP account has no key ${fingerprint}`);
      }
      await this.partners.repository.setPublicKeys(id, kept, transaction);
      await this.partners.record(
        'edi_partner.sftp_key_removed',
        partner,
        actor,
        { publicKey: { fingerprint } },
        transaction,
      );
    });
  }
}
