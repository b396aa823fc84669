import { createHash, randomBytes } from 'node:crypto';
import bcrypt from 'bcrypt';
import { createRequire } from 'node:module';
import type Ssh2 from 'ssh2';

// ssh2 is loaded when a key is first read, not with the library: most processes that load the partners'
// administration never read a key, and ssh2 is a large module graph.
const load = createRequire(import.meta.url);
let ssh2: typeof Ssh2 | undefined;
const sshUtils = () => (ssh2 ??= load('ssh2') as typeof Ssh2).utils;
import { AppError } from '@wms/platform';

/** A public key of a partner's SFTP account as answers show it: never more than the fingerprint and its label. */
export interface SftpPublicKey {
  /** OpenSSH's SHA256 fingerprint of the key (`SHA256:…`, base64 without padding). */
  fingerprint: string;
  /** The key type, e.g. ssh-ed25519, ssh-rsa, ecdsa-sha2-nistp256. */
  type: string;
  comment: string;
}

/** 24 random bytes: a 32-character password of the URL-safe base64 alphabet. */
const PASSWORD_BYTES = 24;

/** A new SFTP password, shown to the admin once; only its bcrypt hash is stored. */
export async function newSftpPassword(rounds: number): Promise<{ password: string; hash: string }> {
  const password = randomBytes(PASSWORD_BYTES).toString('base64url');
  return { password, hash: await bcrypt.hash(password, rounds) };
}

function fingerprintOf(publicSsh: Buffer): string {
  return `SHA256:${createHash('sha256').update(publicSsh).digest('base64').replace(/=+$/, '')}`;
}

/**
 * The OpenSSH public line (`type base64 comment`) of a public key the admin pasted (OpenSSH or PEM), read with
 * ssh2's own parser, the one the SFTP server checks logins with. A private key is refused: it must never
 * leave the partner.
 */
export function publicKeyLine(text: string): { line: string; key: SftpPublicKey } {
  const parsed = sshUtils().parseKey(text.trim());
  const first = Array.isArray(parsed) ? parsed[0] : parsed;
  if (!first || first instanceof Error) {
    throw new AppError('SFTP_KEY_INVALID', 'publicKey is not an SSH public key ssh2 can read (OpenSSH or PEM)', [
      { path: 'publicKey', message: 'not an SSH public key' },
    ]);
  }
  if (first.isPrivateKey()) {
    throw new AppError('SFTP_KEY_PRIVATE', 'publicKey is a private key: send only the public half (the .pub file)', [
      { path: 'publicKey', message: 'a private key; send the public one' },
    ]);
  }
  const blob = first.getPublicSSH();
  const comment = (first.comment ?? '').replace(/[\r\n]/g, ' ').trim();
  return {
    line: `${first.type} ${blob.toString('base64')}${comment ? ` ${comment}` : ''}`,
    key: { fingerprint: fingerprintOf(blob), type: first.type, comment },
  };
}

/** What an answer shows of a stored OpenSSH public line. */
export function describePublicKey(line: string): SftpPublicKey {
  const [type = '', base64 = '', ...comment] = line.split(' ');
  return { fingerprint: fingerprintOf(Buffer.from(base64, 'base64')), type, comment: comment.join(' ') };
}
