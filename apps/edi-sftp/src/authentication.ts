import { timingSafeEqual } from 'node:crypto';
import bcrypt from 'bcrypt';
import ssh2, { type AuthContext, type ParsedKey, type PublicKeyAuthContext } from 'ssh2';
import type { AttemptThrottle, Logger } from '@wms/platform';
import type { PartnerCredentials, PartnersRepository } from '@wms/edi';

/** What an authentication request comes to: a partner signed in, a key the partner may sign with, or no. */
export type AuthOutcome =
  | { kind: 'accepted'; partnerId: string; tenantId: string; username: string }
  | { kind: 'key-acceptable' }
  | { kind: 'refused'; throttled?: boolean };

/**
 * Checks an SFTP login against the partner's stored credentials (`PartnersRepository.credentials`). A
 * disabled partner, an unknown user and a wrong secret are refused alike; failed attempts count per user
 * and address, and past the limit even the right secret is refused until the window passes. Nothing
 * offered (a password, a key) is ever logged.
 */
export class SftpAuthenticator {
  /** Compared against when the user is unknown, so an unknown user costs the time a wrong password does. */
  private unknownUserHash: Promise<string> | undefined;

  constructor(
    private readonly partners: PartnersRepository,
    private readonly failures: AttemptThrottle,
    private readonly logger: Logger,
    private readonly bcryptRounds: number,
  ) {}

  async authenticate(ctx: AuthContext, address: string): Promise<AuthOutcome> {
    if (ctx.method !== 'password' && ctx.method !== 'publickey') return { kind: 'refused' };
    const throttleKey = `${ctx.username.slice(0, 128)}|${address}`;
    // A key query (no signature yet) proves nothing and costs nothing: only real attempts count.
    const proving = ctx.method === 'password' || ctx.signature !== undefined;
    if (proving && (await this.failures.blockedFor(throttleKey)) !== null) {
      this.logger.warn({ username: ctx.username, address }, 'edi-sftp: login refused, too many failed attempts');
      return { kind: 'refused', throttled: true };
    }
    const credentials = await this.partners.credentials(ctx.username);
    const usable = credentials?.status === 'active' ? credentials : null;
    const outcome =
      ctx.method === 'password' ? await this.checkPassword(usable, ctx.password) : checkPublicKey(usable, ctx);
    if (outcome.kind === 'refused' && proving) {
      await this.failures.failed(throttleKey);
      this.logger.info({ username: ctx.username, address, method: ctx.method }, 'edi-sftp: login refused');
    }
    return outcome;
  }

  private async checkPassword(credentials: PartnerCredentials | null, password: string): Promise<AuthOutcome> {
    this.unknownUserHash ??= bcrypt.hash('no partner has this password', this.bcryptRounds);
    const hash = credentials?.sftpPasswordHash ?? (await this.unknownUserHash);
    const matches = await bcrypt.compare(password, hash);
    return matches && credentials?.sftpPasswordHash ? accepted(credentials) : { kind: 'refused' };
  }
}

function checkPublicKey(credentials: PartnerCredentials | null, ctx: PublicKeyAuthContext): AuthOutcome {
  const key = credentials ? storedKeys(credentials).find((stored) => sameKey(stored, ctx.key.data)) : undefined;
  if (!credentials || !key) return { kind: 'refused' };
  if (ctx.signature === undefined || ctx.blob === undefined) return { kind: 'key-acceptable' };
  return key.verify(ctx.blob, ctx.signature, ctx.hashAlgo) === true ? accepted(credentials) : { kind: 'refused' };
}

function accepted(credentials: PartnerCredentials): AuthOutcome {
  return {
    kind: 'accepted',
    partnerId: credentials.partnerId,
    tenantId: credentials.tenantId,
    username: credentials.sftpUsername,
  };
}

/** The partner's public keys as ssh2 reads them (authorized_keys lines or PEM); a key it cannot read is skipped. */
function storedKeys(credentials: PartnerCredentials): ParsedKey[] {
  return credentials.sftpPublicKeys.flatMap((text) => {
    const parsed = ssh2.utils.parseKey(text);
    if (parsed instanceof Error) return [];
    return Array.isArray(parsed) ? parsed : [parsed];
  });
}

function sameKey(stored: ParsedKey, offered: Buffer): boolean {
  const blob = stored.getPublicSSH();
  return blob.length === offered.length && timingSafeEqual(blob, offered);
}
