/**
 * WAL positions (LSNs) as PostgreSQL prints them, `16/B374D848`: two hex halves of a 64-bit byte
 * position. As a bigint they compare; as fixed-width hex text they compare the same way, which is how
 * Redis keeps them (a Lua string comparison).
 */
export function parseLsn(text: string): bigint {
  const match = /^([0-9A-Fa-f]{1,8})\/([0-9A-Fa-f]{1,8})$/.exec(text);
  if (!match) throw new Error(`not a WAL position: ${text}`);
  return (BigInt(`0x${match[1]}`) << 32n) | BigInt(`0x${match[2]}`);
}

/** The position as 16 upper-case hex digits. */
export function lsnToKeyText(lsn: bigint): string {
  return lsn.toString(16).toUpperCase().padStart(16, '0');
}

export function lsnFromKeyText(text: string): bigint {
  if (!/^[0-9A-F]{16}$/.test(text)) throw new Error(`not a stored WAL position: ${text}`);
  return BigInt(`0x${text}`);
}
