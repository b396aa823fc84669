import { BlockList, isIP } from 'node:net';

/**
 * IP whitelist and allowed-origin rules of an API key (checked after the scope, before the rate limit). Entries
 * are validated when a key is saved; the matchers here are built once per cached key and cost no I/O per
 * request.
 */

const MAPPED_IPV4 = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;

/** `::ffff:a.b.c.d` is the IPv4 address a.b.c.d (what a dual-stack socket reports for IPv4 clients). */
export function normalizeIp(address: string): string {
  const mapped = MAPPED_IPV4.exec(address);
  return mapped ? mapped[1]! : address;
}

/** An exact address or a CIDR range, IPv4 or IPv6 (mapped IPv4 included). */
export function isIpOrCidr(entry: string): boolean {
  const [address, prefix, ...rest] = entry.split('/');
  if (rest.length > 0 || !address) return false;
  const family = isIP(address);
  if (family === 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

export class IpWhitelist {
  private readonly list = new BlockList();

  constructor(entries: string[]) {
    for (const entry of entries) this.add(entry);
  }

  private add(entry: string): void {
    const [rawAddress = '', rawPrefix] = entry.split('/');
    let address = rawAddress;
    let prefix = rawPrefix === undefined ? undefined : Number(rawPrefix);
    const mapped = MAPPED_IPV4.exec(address);
    if (mapped) {
      // ::ffff:a.b.c.d/n with n >= 96 is the IPv4 range a.b.c.d/(n-96).
      address = mapped[1]!;
      if (prefix !== undefined) prefix = Math.max(0, prefix - 96);
    }
    const type = isIP(address) === 4 ? 'ipv4' : 'ipv6';
    if (prefix === undefined) this.list.addAddress(address, type);
    else this.list.addSubnet(address, prefix, type);
  }

  allows(clientIp: string): boolean {
    const address = normalizeIp(clientIp);
    const family = isIP(address);
    if (family === 0) return false;
    return this.list.check(address, family === 4 ? 'ipv4' : 'ipv6');
  }
}

const ORIGIN_SHAPE = /^[a-z][a-z0-9+.-]*:\/\/[^/?#@\s]+\/?$/i;

/**
 * The canonical form of a full origin (scheme://host[:port]): lower case, default port dropped; null when it is
 * not one.
 */
export function canonicalOrigin(value: string): string | null {
  if (!ORIGIN_SHAPE.test(value)) return null;
  try {
    const url = new URL(value);
    if (url.origin === 'null' || url.username || url.password || url.pathname !== '/' || url.search || url.hash)
      return null;
    return url.origin;
  } catch {
    return null;
  }
}

export class OriginList {
  private readonly origins: Set<string>;

  constructor(entries: string[]) {
    this.origins = new Set(entries.map((entry) => canonicalOrigin(entry) ?? entry));
  }

  allows(origin: string): boolean {
    const canonical = canonicalOrigin(origin);
    return canonical !== null && this.origins.has(canonical);
  }
}
