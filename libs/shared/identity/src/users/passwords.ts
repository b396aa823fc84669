import bcrypt from 'bcrypt';

export function hashPassword(password: string, rounds: number): Promise<string> {
  return bcrypt.hash(password, rounds);
}

export function verifyPassword(password: string, hash: string): Promise<boolean> {
  return bcrypt.compare(password, hash);
}

/**
 * A hash of a password nobody has, compared against when the e-mail is unknown so that an unknown
 * account and a wrong password take the same time (no account enumeration by timing).
 */
export function createDecoyHash(rounds: number): string {
  return bcrypt.hashSync('decoy-password-for-timing', rounds);
}
