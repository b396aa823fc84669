import { isIPv4, isIPv6 } from 'node:net';

/** Most proxy hops production believes: more is a chain no deployment has, and lets a client add its own. */
export const TRUST_PROXY_MAX_HOPS = 10;

/** The ranges Express' trust-proxy names stand for (proxy-addr's). */
const NAMED_RANGES: Record<string, string[]> = {
  loopback: ['127.0.0.1/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

const V4_BITS = 32n;
const V6_BITS = 128n;
/** ::ffff:0:0/96, where IPv6 writes IPv4 addresses; proxy-addr matches an IPv4 client against it. */
const MAPPED_START = 0xffffn << 32n;
const MAPPED_END = MAPPED_START + (1n << 32n) - 1n;

interface Interval {
  start: bigint;
  end: bigint;
}

/**
 * Why a TRUST_PROXY value trusts any client, or null when it does not: a hop count above
 * TRUST_PROXY_MAX_HOPS, or addresses and ranges that together cover every IPv4 address or every IPv6
 * address. IPv4-mapped IPv6 ranges (`::ffff:0:0/96`) count toward IPv4, as proxy-addr matches IPv4 clients
 * against them. An entry that is not an address is left to Express, which refuses it at start.
 */
export function trustsAnyClient(trustProxy: string): string | null {
  const value = trustProxy.trim().toLowerCase();
  if (value === 'true') return 'trusts every address';
  if (/^\d+$/.test(value))
    return Number(value) > TRUST_PROXY_MAX_HOPS ? `trusts ${value} hops (at most ${TRUST_PROXY_MAX_HOPS})` : null;
  const v4: Interval[] = [];
  const v6: Interval[] = [];
  const entries = value.split(',').flatMap((part) => NAMED_RANGES[part.trim()] ?? [part.trim()]);
  for (const entry of entries) {
    const range = parseRange(entry);
    if (!range) continue;
    if (range.family === 4) {
      v4.push(range);
      v6.push({ start: MAPPED_START + range.start, end: MAPPED_START + range.end });
    } else {
      v6.push(range);
      const start = range.start > MAPPED_START ? range.start : MAPPED_START;
      const end = range.end < MAPPED_END ? range.end : MAPPED_END;
      if (start <= end) v4.push({ start: start - MAPPED_START, end: end - MAPPED_START });
    }
  }
  if (covers(v6, (1n << V6_BITS) - 1n)) return 'trusts every IPv6 address';
  if (covers(v4, (1n << V4_BITS) - 1n)) return 'trusts every IPv4 address';
  return null;
}

/** Whether the intervals together cover 0..max. */
function covers(intervals: Interval[], max: bigint): boolean {
  let next = 0n;
  for (const { start, end } of [...intervals].sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0))) {
    if (start > next) return false;
    if (end + 1n > next) next = end + 1n;
    if (next > max) return true;
  }
  return false;
}

/** An address, `address/prefix` or `address/netmask` as the interval it spans, or null when it is none. */
function parseRange(entry: string): (Interval & { family: 4 | 6 }) | null {
  const [address = '', mask] = entry.split('/');
  const family = isIPv4(address) ? 4 : isIPv6(address) ? 6 : null;
  if (!family) return null;
  const bits = family === 4 ? V4_BITS : V6_BITS;
  const prefix = mask === undefined ? bits : prefixOf(mask, family);
  if (prefix === null || prefix < 0n || prefix > bits) return null;
  const host = (1n << (bits - prefix)) - 1n;
  const start = (family === 4 ? v4Value(address) : v6Value(address)) & ~host;
  return { family, start, end: start + host };
}

function prefixOf(mask: string, family: 4 | 6): bigint | null {
  if (/^\d+$/.test(mask)) return BigInt(mask);
  if (family !== 4 || !isIPv4(mask)) return null;
  // A netmask (255.255.0.0): its leading ones.
  const ones = /^1*/.exec(v4Value(mask).toString(2).padStart(32, '0'))![0].length;
  return BigInt(ones);
}

function v4Value(address: string): bigint {
  return address.split('.').reduce((value, octet) => (value << 8n) + BigInt(Number(octet)), 0n);
}

function v6Value(address: string): bigint {
  let text = address;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const v4 = v4Value(dotted[1]!);
    text = `${text.slice(0, dotted.index)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const groups =
    tail === undefined
      ? headGroups
      : [...headGroups, ...Array<string>(8 - headGroups.length - tailGroups.length).fill('0'), ...tailGroups];
  return groups.reduce((value, group) => (value << 16n) + BigInt(parseInt(group, 16)), 0n);
}
