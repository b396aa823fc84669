import { randomBytes } from 'node:crypto';
import type { Database } from '@wms/platform';
import { AppError } from '@wms/platform';
import { emailForLookup, hashPassword } from '../users/index.js';
import { AccountLocksRepository, type AccountRow } from './account-locks.repository.js';
import { RefreshTokensRepository } from './refresh-tokens.repository.js';

export interface PasswordReset {
  account: AccountRow;
  /** Shown once to the operator; only its bcrypt hash is stored. */
  password: string;
  /** Sessions (refresh-token families) the reset ended. */
  endedSessions: number;
}

/** 18 random bytes, base64url: 24 characters, 144 bits. */
export function oneTimePassword(): string {
  return randomBytes(18).toString('base64url');
}

/**
 * What `npm run wms -- users …` does with database access alone, for when no admin can sign in (the only
 * admin locked or its password lost).
 */
export class OperatorAccounts {
  private readonly locks: AccountLocksRepository;
  private readonly families: RefreshTokensRepository;

  constructor(
    db: Database,
    private readonly bcryptRounds: number,
  ) {
    this.locks = new AccountLocksRepository(db);
    this.families = new RefreshTokensRepository(db);
  }

  /** Locked → active, failure count reset. A disabled (inactive) account stays disabled. */
  async unlock(email: string): Promise<AccountRow> {
    const account = await this.find(email);
    return (await this.locks.unlock(account.id)) ?? account;
  }

  /** A new random password (unlocking a locked account) and the end of every session of the account. */
  async resetPassword(email: string): Promise<PasswordReset> {
    const account = await this.find(email);
    const password = oneTimePassword();
    const updated = await this.locks.resetPassword(account.id, await hashPassword(password, this.bcryptRounds));
    const endedSessions = await this.families.revokeAllOf(account.id, 'password-reset');
    return { account: updated ?? account, password, endedSessions };
  }

  private async find(email: string): Promise<AccountRow> {
    const normalized = emailForLookup(email);
    const account = await this.locks.findByEmail(normalized);
    if (!account) throw AppError.notFound(`No user with e-mail ${normalized}`);
    return account;
  }
}
