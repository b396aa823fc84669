import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { AppError } from '@wms/platform';

/**
 * The SSRF guard. Subscriber URLs may not reach loopback, private, CGNAT, link-local (cloud metadata),
 * ULA, multicast, reserved or unspecified addresses, nor IPv6 forms that embed an IPv4 address. The
 * WHATWG URL parser already turns `0x7f000001`, `2130706433`, `0177.0.0.1` and `127.1` into
 * `127.0.0.1`, so the check runs on the parsed host. At delivery the same check runs on every address
 * DNS gives (see `guardedLookup`), so a name that changes to a private address after registration
 * is refused when connecting.
 */
// Two lists: Node's BlockList matches IPv4 addresses against IPv4-mapped IPv6 rules, and the IPv6 list
// blocks all of ::ffff:0:0/96 and ::/96.
const blockedV4 = new BlockList();
const blockedV6 = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // CGNAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata 169.254.169.254
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // TEST-NET-1
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // TEST-NET-2
  ['203.0.113.0', 24], // TEST-NET-3
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  blockedV4.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['::ffff:0:0', 96], // IPv4-mapped: would reach any IPv4 address
  ['::ffff:0:0:0', 96], // IPv4-translated (SIIT): embeds IPv4
  ['::', 96], // IPv4-compatible (deprecated)
  ['64:ff9b::', 96], // NAT64: embeds IPv4
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['2001::', 32], // Teredo: embeds an IPv4 address and reaches it through a relay
  ['2002::', 16], // 6to4: embeds IPv4
  ['fc00::', 7], // ULA (includes fd00:ec2::254, AWS metadata over IPv6)
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  blockedV6.addSubnet(network, prefix, 'ipv6');
}

export function isBlockedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blockedV4.check(address, 'ipv4');
  if (family === 6) return blockedV6.check(address, 'ipv6');
  return true; // not an address at all: refuse rather than guess
}

export interface UrlPolicy {
  allowPrivate: boolean;
  requireHttps: boolean;
}

function invalidUrl(message: string): AppError {
  return AppError.validation('Invalid webhook URL', [{ path: 'url', message }]);
}

/** Parses and checks the form of a subscriber URL; returns the normalised URL. */
export function parseWebhookUrl(raw: string, policy: UrlPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalidUrl('url is not a valid URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw invalidUrl('url must use http or https');
  if (policy.requireHttps && url.protocol !== 'https:') throw invalidUrl('url must use https');
  if (url.username || url.password) throw invalidUrl('url must not contain credentials');
  if (!url.hostname) throw invalidUrl('url has no host');
  return url;
}

/** The host of a parsed URL as an IP address, or null when it is a name ([::1] → ::1). */
export function literalAddress(url: URL): string | null {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return isIP(host) ? host : null;
}

function lookupAll(hostname: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => {
    dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) =>
      error ? reject(error) : resolve(addresses),
    );
  });
}

/**
 * Registration-time check: the URL's form, then every address its host has now. Refused with 400
 * VALIDATION_FAILED naming the reason.
 */
export async function assertDeliverableUrl(raw: string, policy: UrlPolicy): Promise<string> {
  const url = parseWebhookUrl(raw, policy);
  if (policy.allowPrivate) return url.toString();
  const literal = literalAddress(url);
  if (literal) {
    if (isBlockedAddress(literal))
      throw invalidUrl('url points to a private, loopback, link-local or reserved address');
    return url.toString();
  }
  if (url.hostname === 'localhost' || url.hostname.endsWith('.localhost')) {
    throw invalidUrl('url points to a private, loopback, link-local or reserved address');
  }
  let addresses: LookupAddress[];
  try {
    addresses = await lookupAll(url.hostname);
  } catch {
    throw invalidUrl(`url host ${url.hostname} does not resolve`);
  }
  if (addresses.length === 0 || addresses.some((entry) => isBlockedAddress(entry.address))) {
    throw invalidUrl('url points to a private, loopback, link-local or reserved address');
  }
  return url.toString();
}

export class BlockedAddressError extends Error {
  override name = 'BlockedAddressError';
  readonly code = 'EBLOCKEDADDRESS';
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `dns.lookup` replacement for the HTTP client: resolves every address of the host and refuses the
 * connection when any is blocked, so the address actually connected to is one that was checked.
 */
export function guardedLookup(
  hostname: string,
  options: LookupOptions | LookupCallback,
  callback?: LookupCallback,
): void {
  const done = (typeof options === 'function' ? options : callback)!;
  const wanted: LookupOptions = typeof options === 'function' ? {} : options;
  dnsLookup(hostname, { ...wanted, all: true }, (error, addresses) => {
    if (error) return done(error, []);
    const bad = addresses.find((entry) => isBlockedAddress(entry.address));
    if (bad || addresses.length === 0) {
      return done(new BlockedAddressError(`${hostname} resolves to a blocked address`) as NodeJS.ErrnoException, []);
    }
    if (wanted.all) return done(null, addresses);
    const first = addresses[0]!;
    return done(null, first.address, first.family);
  });
}
