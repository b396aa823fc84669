import type { Config } from '../config/index.js';
import type { Database } from '../db/models.js';
import { AppError } from '../errors/index.js';
import { toPublicUser, type PublicUser, type UserAttributes } from '../users/user.model.js';
import { createDecoyHash, verifyPassword } from './passwords.js';
import type { Principal } from './permissions.js';
import { TokenService, type TokenPair } from './tokens.js';

export interface LoginResult extends TokenPair {
  user: PublicUser;
}

/** One message for unknown e-mail and wrong password, so a caller cannot tell which accounts exist. */
export const INVALID_CREDENTIALS = 'Invalid email or password';
export const ACCOUNT_NOT_ACTIVE = 'Account is inactive or locked';

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function principalOf(user: UserAttributes): Principal {
  return {
    sub: user.id,
    email: user.email,
    role: user.role,
    tenantId: user.tenantId,
    adminModules: user.adminModules,
    adminModulesWrite: user.adminModulesWrite,
  };
}

export class AuthService {
  readonly tokens: TokenService;
  private decoyHash: string | undefined;

  constructor(
    private readonly db: Database,
    private readonly config: Pick<Config, 'jwt' | 'bcryptRounds' | 'loginMaxFailedAttempts'>,
  ) {
    this.tokens = new TokenService(config.jwt);
  }

  async login(email: string, password: string): Promise<LoginResult> {
    const { User } = this.db.models;
    const found = await User.findOne({ where: { email: normalizeEmail(email) } });
    if (!found) {
      this.decoyHash ??= createDecoyHash(this.config.bcryptRounds);
      await verifyPassword(password, this.decoyHash);
      throw AppError.unauthorized(INVALID_CREDENTIALS, 'INVALID_CREDENTIALS');
    }
    const user = found.get({ plain: true });
    if (user.status !== 'active') throw AppError.unauthorized(ACCOUNT_NOT_ACTIVE, 'ACCOUNT_NOT_ACTIVE');
    if (!(await verifyPassword(password, user.passwordHash))) {
      await this.recordFailedLogin(user.id);
      throw AppError.unauthorized(INVALID_CREDENTIALS, 'INVALID_CREDENTIALS');
    }
    const [, updated] = await User.update(
      { lastLoginAt: new Date(), failedLoginCount: 0 },
      { where: { id: user.id, status: 'active' }, returning: true },
    );
    const current = updated[0]?.get({ plain: true });
    // Locked by concurrent failures between our read and our write.
    if (!current) throw AppError.unauthorized(ACCOUNT_NOT_ACTIVE, 'ACCOUNT_NOT_ACTIVE');
    return { user: toPublicUser(current), ...this.tokens.issue(principalOf(current)) };
  }

  /** Exchanges a refresh token for a new pair; the claims come from the user as stored now. */
  async refresh(refreshToken: string): Promise<TokenPair> {
    const payload = this.tokens.verifyRefresh(refreshToken);
    const found = await this.db.models.User.findByPk(payload.sub);
    const user = found?.get({ plain: true });
    if (!user) throw AppError.unauthorized('Invalid token');
    if (user.status !== 'active') throw AppError.unauthorized(ACCOUNT_NOT_ACTIVE, 'ACCOUNT_NOT_ACTIVE');
    return this.tokens.issue(principalOf(user));
  }

  /** Counts a wrong password atomically; the N-th consecutive one locks the account. */
  private async recordFailedLogin(userId: string): Promise<void> {
    await this.db.sequelize.query(
      `UPDATE users
          SET failed_login_count = failed_login_count + 1,
              status = CASE WHEN failed_login_count + 1 >= :max THEN 'locked' ELSE status END,
              updated_at = now()
        WHERE id = :userId AND status = 'active'`,
      { replacements: { userId, max: this.config.loginMaxFailedAttempts } },
    );
  }
}
