import { createHash, randomUUID } from 'node:crypto';
import type { Principal } from '../access/index.js';
import type { Database } from '@wms/platform';
import { AppError, unitOfWork } from '@wms/platform';
import { RefreshTokensRepository, type RevokeReason } from './refresh-tokens.repository.js';
import type { IssuedPair, TokenPair, TokenService } from './tokens.js';

export const SESSION_ENDED = 'Session has ended; sign in again';
export const REFRESH_TOKEN_REUSED = 'Refresh token was already used; the session has ended, sign in again';

/** The SHA-256 digest (hex) a refresh token is stored under. */
export function refreshTokenDigest(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

const pairOf = ({ accessToken, refreshToken }: IssuedPair): TokenPair => ({ accessToken, refreshToken });

/**
 * Refresh-token families: a sign-in starts one, each refresh rotates within it, and a rotated token
 * presented again ends it (whoever holds the successor, thief or owner, must sign in again).
 */
export class RefreshSessions {
  private readonly repository: RefreshTokensRepository;

  constructor(
    private readonly db: Database,
    private readonly tokens: TokenService,
  ) {
    this.repository = new RefreshTokensRepository(db);
  }

  async start(principal: Principal, sessionVersion: number): Promise<TokenPair> {
    const issued = this.tokens.issue(principal, sessionVersion);
    await this.repository.startFamily(randomUUID(), principal.sub, this.stored(issued));
    return pairOf(issued);
  }

  /** Exchanges a verified refresh token of the (active) user for a new pair in the same family. */
  async rotate(principal: Principal, sessionVersion: number, presented: string): Promise<TokenPair> {
    const issued = this.tokens.issue(principal, sessionVersion);
    const outcome = await unitOfWork(this.db, (work) =>
      this.repository.rotate(principal.sub, refreshTokenDigest(presented), this.stored(issued), work),
    );
    if (outcome.kind === 'reused') throw AppError.unauthorized(REFRESH_TOKEN_REUSED, 'REFRESH_TOKEN_REUSED');
    if (outcome.kind !== 'rotated') throw AppError.unauthorized(SESSION_ENDED, 'SESSION_ENDED');
    return pairOf(issued);
  }

  /** Ends the family of the token, whatever the token's state; an unknown token is no error (signing out twice is fine). */
  async end(token: string): Promise<void> {
    await this.repository.revokeFamilyOf(refreshTokenDigest(token), 'logout');
  }

  /** Ends every session of the user; answers how many were live. */
  endAll(userId: string, reason: RevokeReason): Promise<number> {
    return this.repository.revokeAllOf(userId, reason);
  }

  private stored(issued: IssuedPair) {
    return { hash: refreshTokenDigest(issued.refreshToken), expiresAt: issued.refreshExpiresAt };
  }
}
