import type { Config } from '@wms/platform';
import type { Principal } from '../access/index.js';
import type { Database } from '@wms/platform';
import { AppError } from '@wms/platform';
import { DEFAULT_TENANT_CODE, TenantsService } from '../tenants/index.js';
import {
  changePasswordSchema,
  createDecoyHash,
  emailForLookup,
  hashPassword,
  registerSchema,
  toPublicUser,
  UsersRepository,
  verifyPassword,
  type PublicUser,
  type UserAttributes,
} from '../users/index.js';
import { validate } from '@wms/platform';
import { AccountLocksRepository } from './account-locks.repository.js';
import { AddressLocksRepository, addressDigest } from './address-locks.repository.js';
import { RefreshSessions } from './refresh-sessions.js';
import { TokenService, type TokenPair } from './tokens.js';

export interface LoginResult extends TokenPair {
  user: PublicUser;
}

/** One message for unknown e-mail and wrong password, so a caller cannot tell which accounts exist. */
export const INVALID_CREDENTIALS = 'Invalid email or password';
export const ACCOUNT_NOT_ACTIVE = 'Account is inactive or locked';
export const INVALID_CURRENT_PASSWORD = 'Current password is incorrect';

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

/** Refresh tokens carry this; changing the password changes it and so voids every older refresh token. */
export function sessionVersionOf(user: Pick<UserAttributes, 'passwordChangedAt'>): number {
  return user.passwordChangedAt ? new Date(user.passwordChangedAt).getTime() : 0;
}

type AuthConfig = Pick<
  Config,
  'jwt' | 'bcryptRounds' | 'loginMaxFailedAttempts' | 'loginLockSeconds' | 'allowRegistration'
>;

export class AuthService {
  readonly tokens: TokenService;
  readonly sessions: RefreshSessions;
  private readonly users: UsersRepository;
  private readonly locks: AccountLocksRepository;
  private readonly addressLocks: AddressLocksRepository;
  private readonly tenants: TenantsService;
  private decoyHash: string | undefined;

  constructor(
    private readonly db: Database,
    private readonly config: AuthConfig,
  ) {
    this.tokens = new TokenService(config.jwt);
    this.sessions = new RefreshSessions(db, this.tokens);
    this.users = new UsersRepository(db);
    this.locks = new AccountLocksRepository(db);
    this.addressLocks = new AddressLocksRepository(db);
    this.tenants = new TenantsService(db);
  }

  async login(email: string, password: string): Promise<LoginResult> {
    const address = emailForLookup(email);
    const user = await this.findForLogin(address);
    if (!user) return this.refuseUnknown(address, password);
    if (user.status !== 'active') throw AppError.unauthorized(ACCOUNT_NOT_ACTIVE, 'ACCOUNT_NOT_ACTIVE');
    if (!(await verifyPassword(password, user.passwordHash))) {
      await this.users.recordFailedLogin(user.id, this.config.loginMaxFailedAttempts);
      throw AppError.unauthorized(INVALID_CREDENTIALS, 'INVALID_CREDENTIALS');
    }
    const current = await this.users.recordLogin(user.id);
    // Locked by concurrent failures between our read and our write.
    if (!current) throw AppError.unauthorized(ACCOUNT_NOT_ACTIVE, 'ACCOUNT_NOT_ACTIVE');
    return this.session(current);
  }

  /**
   * An e-mail without an account is answered as an account would be: a wrong password (after the same bcrypt
   * work, against a decoy hash) that counts towards a lock of the address, and once locked, the locked answer
   * without a password check. So neither the answers nor their order tell which e-mails have accounts.
   */
  private async refuseUnknown(address: string, password: string): Promise<never> {
    const { loginLockSeconds, loginMaxFailedAttempts, bcryptRounds } = this.config;
    const digest = addressDigest(address);
    if (await this.addressLocks.isLocked(digest, loginLockSeconds))
      throw AppError.unauthorized(ACCOUNT_NOT_ACTIVE, 'ACCOUNT_NOT_ACTIVE');
    this.decoyHash ??= createDecoyHash(bcryptRounds);
    await verifyPassword(password, this.decoyHash);
    await this.addressLocks.recordFailure(digest, loginLockSeconds, loginMaxFailedAttempts);
    throw AppError.unauthorized(INVALID_CREDENTIALS, 'INVALID_CREDENTIALS');
  }

  /**
   * Exchanges a refresh token for a new pair in its family (the token presented is used up); the claims
   * come from the user as stored now. A token presented a second time ends its family.
   */
  async refresh(refreshToken: string): Promise<TokenPair> {
    const payload = this.tokens.verifyRefresh(refreshToken);
    const user = await this.users.findById(payload.sub);
    if (!user) throw AppError.unauthorized('Invalid token');
    if (user.status !== 'active') throw AppError.unauthorized(ACCOUNT_NOT_ACTIVE, 'ACCOUNT_NOT_ACTIVE');
    if (payload.sv !== sessionVersionOf(user))
      throw AppError.unauthorized('Token revoked by a password change', 'TOKEN_REVOKED');
    return this.sessions.rotate(principalOf(user), sessionVersionOf(user), refreshToken);
  }

  /** Ends the session (the family) of a refresh token; nothing to end is no error. */
  async logout(refreshToken: string | undefined): Promise<void> {
    if (refreshToken) await this.sessions.end(refreshToken);
  }

  /** Self-service sign-up: role viewer in tenant DEFAULT, signed in at once. Off unless AUTH_ALLOW_REGISTRATION. */
  async register(body: unknown): Promise<LoginResult> {
    if (!this.config.allowRegistration) throw AppError.forbidden('Registration is disabled', 'REGISTRATION_DISABLED');
    const input = validate(registerSchema, body);
    const tenant = await this.tenants.findByCode(DEFAULT_TENANT_CODE);
    if (!tenant) throw new AppError('NOT_SEEDED', `Tenant ${DEFAULT_TENANT_CODE} does not exist; run the seed routine`);
    const user = await this.users.insert({
      email: input.email,
      passwordHash: await hashPassword(input.password, this.config.bcryptRounds),
      firstName: input.firstName,
      lastName: input.lastName,
      role: 'viewer',
      tenantId: tenant.id,
      lastLoginAt: new Date(),
    });
    return this.session(user);
  }

  /**
   * The account of a login attempt. With LOGIN_LOCK_SECONDS set, a lock older than that is lifted first
   * (count reset), so the attempt is judged as any other.
   */
  private async findForLogin(email: string): Promise<UserAttributes | null> {
    const user = await this.users.findByEmail(email);
    const lockSeconds = this.config.loginLockSeconds;
    if (user?.status !== 'locked' || lockSeconds <= 0) return user;
    return (await this.locks.expireLock(user.id, lockSeconds)) ? this.users.findById(user.id) : user;
  }

  /** The caller as stored now (its token may be older than its latest changes). */
  async me(principal: Pick<Principal, 'sub'>): Promise<PublicUser> {
    const user = await this.users.findById(principal.sub);
    if (!user) throw AppError.unauthorized('Invalid token');
    return toPublicUser(user);
  }

  /**
   * Needs the current password; a wrong one is a 400 (the caller's token is fine, so not a 401 that
   * would make a client sign out) and counts towards the lockout like a failed login. Answers a new
   * token pair, because every refresh token issued before the change is now refused.
   */
  async changePassword(principal: Pick<Principal, 'sub'>, body: unknown): Promise<LoginResult> {
    const input = validate(changePasswordSchema, body);
    const user = await this.users.findById(principal.sub);
    if (!user) throw AppError.unauthorized('Invalid token');
    if (user.status !== 'active') throw AppError.unauthorized(ACCOUNT_NOT_ACTIVE, 'ACCOUNT_NOT_ACTIVE');
    if (!(await verifyPassword(input.currentPassword, user.passwordHash))) {
      await this.users.recordFailedLogin(user.id, this.config.loginMaxFailedAttempts);
      throw new AppError('INVALID_CURRENT_PASSWORD', INVALID_CURRENT_PASSWORD);
    }
    if (input.newPassword === input.currentPassword) {
      throw new AppError('PASSWORD_UNCHANGED', 'The new password must differ from the current one');
    }
    const updated = await this.users.update(user.id, {
      passwordHash: await hashPassword(input.newPassword, this.config.bcryptRounds),
      passwordChangedAt: new Date(),
      failedLoginCount: 0,
    });
    // Every other session ends with the old password; the caller goes on in a new one.
    await this.sessions.endAll(user.id, 'password-changed');
    return this.session(updated);
  }

  private async session(user: UserAttributes): Promise<LoginResult> {
    return { user: toPublicUser(user), ...(await this.sessions.start(principalOf(user), sessionVersionOf(user))) };
  }
}
