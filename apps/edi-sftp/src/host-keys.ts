import ssh2 from 'ssh2';
import { ConfigError, type Config, type Database } from '@wms/platform';
import { SftpHostKeysRepository } from '@wms/edi';

const PEM_BLOCK = /-----BEGIN ([A-Z ]*)PRIVATE KEY-----[\s\S]+?-----END \1PRIVATE KEY-----/g;
/** The name the generated key of a deployment without EDI_SFTP_HOST_KEYS is kept under. */
const GENERATED_KEY_NAME = 'generated-ed25519';

/**
 * The endpoint's host keys: EDI_SFTP_HOST_KEYS (required in production), or else one Ed25519 key generated the
 * first time and kept in PostgreSQL, so the host key a partner's client remembers stays the same across
 * restarts and replicas. No key is ever part of the repository.
 */
export async function resolveHostKeys(config: Config, db: Database): Promise<string[]> {
  if (config.ediSftp.hostKeys) return parseHostKeys(config.ediSftp.hostKeys);
  if (config.nodeEnv === 'production')
    throw new ConfigError('Invalid configuration: EDI_SFTP_HOST_KEYS is required when NODE_ENV=production');
  const generated = newEd25519KeyPair().private;
  return parseHostKeys(await new SftpHostKeysRepository(db).keep(GENERATED_KEY_NAME, generated));
}

/** Pairs ssh2 may make before one reads back (each fails with a chance of about one in 256). */
const KEY_PAIR_ATTEMPTS = 8;

/**
 * A new Ed25519 key pair in OpenSSH's format that ssh2 and OpenSSH read. ssh2's generator strips the leading
 * zero bytes of a public key that starts with one (mscdex/ssh2#1390), and neither reader then accepts the
 * pair: such a pair is dropped and another made.
 */
export function newEd25519KeyPair(): { private: string; public: string } {
  for (let attempt = 0; attempt < KEY_PAIR_ATTEMPTS; attempt += 1) {
    const pair = ssh2.utils.generateKeyPairSync('ed25519');
    if (readsBack(pair.private) && readsBack(pair.public)) return pair;
  }
  throw new Error(`ssh2 made no readable Ed25519 key pair in ${KEY_PAIR_ATTEMPTS} attempts`);
}

function readsBack(text: string): boolean {
  const parsed = ssh2.utils.parseKey(text);
  return !(parsed instanceof Error) && !(Array.isArray(parsed) && parsed.length === 0);
}

/**
 * The setting's PEM blocks, each checked to be a private key ssh2 reads (`\n` written as two characters is read
 * as a line break).
 */
export function parseHostKeys(text: string): string[] {
  const blocks = text.replace(/\\n/g, '\n').match(PEM_BLOCK) ?? [];
  if (blocks.length === 0) throw new ConfigError('Invalid configuration: EDI_SFTP_HOST_KEYS holds no PEM private key');
  return blocks.map((block, index) => {
    const parsed = ssh2.utils.parseKey(block);
    const key = Array.isArray(parsed) ? parsed[0] : parsed;
    // The parser's message names the problem, never the key's bytes.
    if (!key || key instanceof Error || !key.isPrivateKey())
      throw new ConfigError(`Invalid configuration: EDI_SFTP_HOST_KEYS key ${index + 1} is not a readable private key`);
    return block;
  });
}
