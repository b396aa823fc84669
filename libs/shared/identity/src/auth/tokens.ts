import { randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { Config } from '@wms/platform';
import { AppError } from '@wms/platform';
import { roles, type Principal } from '../access/index.js';

export type TokenType = 'access' | 'refresh' | 'queue-console';

export interface AccessTokenPayload extends Principal {
  typ: 'access';
  iat: number;
  exp: number;
}

export interface RefreshTokenPayload {
  sub: string;
  typ: 'refresh';
  /** Session version: the user's password-change time (ms) when issued; a later change voids the token. */
  sv: number;
  iat: number;
  exp: number;
}

export interface TokenPair {
  accessToken: string;
  refreshToken: string;
}

/** A pair as issued: with the moment its refresh token stops being accepted, for the session store. */
export interface IssuedPair extends TokenPair {
  refreshExpiresAt: Date;
}

const ALGORITHM = 'HS256';

/** `iss` of every token this service signs. */
export const TOKEN_ISSUER = 'wms-integration-service';

/** `aud` of each token type: a token is accepted only by the audience it was signed for. */
export const TOKEN_AUDIENCES: Record<TokenType, string> = {
  access: 'wms-admin',
  refresh: 'wms-refresh',
  'queue-console': 'wms-queue-console',
};

const signed = (type: TokenType) =>
  ({ algorithm: ALGORITHM, issuer: TOKEN_ISSUER, audience: TOKEN_AUDIENCES[type] }) as const;

export class TokenService {
  constructor(private readonly jwtConfig: Config['jwt']) {}

  /**
   * An access token and a refresh token. The refresh token carries a random `jti`, so two issued within one
   * second differ (the session store keys tokens by their digest).
   */
  issue(principal: Principal, sessionVersion = 0): IssuedPair {
    const accessClaims = {
      sub: principal.sub,
      email: principal.email,
      role: principal.role,
      tenantId: principal.tenantId,
      adminModules: principal.adminModules,
      adminModulesWrite: principal.adminModulesWrite,
      typ: 'access',
    };
    const accessToken = jwt.sign(accessClaims, this.jwtConfig.secret, {
      ...signed('access'),
      expiresIn: this.jwtConfig.accessTtlSeconds,
    });
    const iat = Math.floor(Date.now() / 1000);
    const refreshToken = jwt.sign(
      { sub: principal.sub, typ: 'refresh', sv: sessionVersion, iat },
      this.jwtConfig.secret,
      { ...signed('refresh'), expiresIn: this.jwtConfig.refreshTtlSeconds, jwtid: randomUUID() },
    );
    return { accessToken, refreshToken, refreshExpiresAt: new Date((iat + this.jwtConfig.refreshTtlSeconds) * 1000) };
  }

  verifyAccess(token: string): AccessTokenPayload {
    const payload = this.verify(token, 'access');
    if (
      typeof payload.email !== 'string' ||
      !roles.includes(payload.role as never) ||
      !Array.isArray(payload.adminModules) ||
      !Array.isArray(payload.adminModulesWrite)
    ) {
      throw AppError.unauthorized('Invalid token');
    }
    return payload as unknown as AccessTokenPayload;
  }

  /**
   * A token that opens the queue console only (its own `typ`, so it is no access token), for the
   * httpOnly cookie a browser sends when it navigates there.
   */
  issueQueueConsole(sub: string, ttlSeconds: number): string {
    return jwt.sign({ sub, typ: 'queue-console' }, this.jwtConfig.secret, {
      ...signed('queue-console'),
      expiresIn: ttlSeconds,
    });
  }

  verifyQueueConsole(token: string): { sub: string } {
    return { sub: this.verify(token, 'queue-console').sub! };
  }

  verifyRefresh(token: string): RefreshTokenPayload {
    const payload = this.verify(token, 'refresh');
    if (typeof payload.sv !== 'number') throw AppError.unauthorized('Invalid token');
    return payload as unknown as RefreshTokenPayload;
  }

  private verify(token: string, expected: TokenType): jwt.JwtPayload {
    let payload: string | jwt.JwtPayload;
    try {
      payload = this.verifySignature(token);
    } catch (error) {
      if (error instanceof jwt.TokenExpiredError) throw AppError.unauthorized('Token expired');
      throw AppError.unauthorized('Invalid token');
    }
    if (typeof payload === 'string' || typeof payload.sub !== 'string') throw AppError.unauthorized('Invalid token');
    if (payload.typ !== expected) throw AppError.unauthorized(`Invalid token type: ${expected} token expected`);
    // Checked after `typ`, so a token of another type is told so rather than "invalid".
    if (payload.iss !== TOKEN_ISSUER || payload.aud !== TOKEN_AUDIENCES[expected])
      throw AppError.unauthorized('Invalid token');
    return payload;
  }

  /**
   * Pinning the algorithm refuses `alg: none` and any other algorithm. A token whose signature does not
   * match JWT_SECRET is tried with JWT_SECRET_PREVIOUS, so rotating the secret logs nobody out; the
   * previous secret never signs.
   */
  private verifySignature(token: string): string | jwt.JwtPayload {
    try {
      return jwt.verify(token, this.jwtConfig.secret, { algorithms: [ALGORITHM] });
    } catch (error) {
      const badSignature = error instanceof jwt.JsonWebTokenError && error.message === 'invalid signature';
      if (!badSignature || !this.jwtConfig.previousSecret) throw error;
      return jwt.verify(token, this.jwtConfig.previousSecret, { algorithms: [ALGORITHM] });
    }
  }
}
