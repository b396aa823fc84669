import { isBlockedAddress } from './url-guard.js';

describe('the SSRF guard (isBlockedAddress)', () => {
  it.each([
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'a Teredo address'],
    ['2001::1', 'the start of the Teredo prefix 2001::/32'],
    ['2001:0:ffff:ffff:ffff:ffff:ffff:ffff', 'the end of the Teredo prefix'],
    ['::ffff:0:7f00:1', 'an IPv4-translated 127.0.0.1'],
    ['::ffff:0:a9fe:a9fe', 'an IPv4-translated metadata address 169.254.169.254'],
    ['::ffff:0:808:808', 'an IPv4-translated public address'],
  ])('refuses %s (%s)', (address) => {
    expect(isBlockedAddress(address)).toBe(true);
  });

  it.each([
    ['2001:4860:4860::8888', 'a public address next to the Teredo prefix (2001:4860::/32)'],
    ['2606:4700:4700::1111', 'a public IPv6 address'],
    ['8.8.8.8', 'a public IPv4 address'],
  ])('lets %s through (%s)', (address) => {
    expect(isBlockedAddress(address)).toBe(false);
  });
});
