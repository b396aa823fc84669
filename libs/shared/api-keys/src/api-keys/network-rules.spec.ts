import { IpWhitelist, OriginList, canonicalOrigin, isIpOrCidr } from './network-rules.js';

describe('API-key network rules', () => {
  it('when entries are checked, addresses and CIDR ranges of both families are accepted and anything else refused', () => {
    expect(['10.0.0.1', '10.0.0.0/8', '::1', '2001:db8::/32', '::ffff:10.0.0.1'].every(isIpOrCidr)).toBe(true);
    expect(
      ['10.0.0.256', '10.0.0.0/33', '2001:db8::/129', 'example.com', '10.0.0.0/8/1', '', '10.0.0.0/'].some(isIpOrCidr),
    ).toBe(false);
  });

  it('when a mapped IPv6 range is whitelisted, the IPv4 addresses inside it match', () => {
    const whitelist = new IpWhitelist(['::ffff:192.0.2.0/120']);

    expect(whitelist.allows('192.0.2.200')).toBe(true);
    expect(whitelist.allows('::ffff:192.0.2.7')).toBe(true);
    expect(whitelist.allows('192.0.3.1')).toBe(false);
  });

  it('when origins are compared, case and default ports do not matter but scheme and port do', () => {
    const origins = new OriginList(['https://Shop.example.com:443', 'http://localhost:3000']);

    expect(origins.allows('https://shop.example.com')).toBe(true);
    expect(origins.allows('http://localhost:3000')).toBe(true);
    expect(origins.allows('http://shop.example.com')).toBe(false);
    expect(origins.allows('http://localhost:3001')).toBe(false);
    expect(origins.allows('null')).toBe(false);
    expect(canonicalOrigin('https://shop.example.com/path')).toBeNull();
    expect(canonicalOrigin('https://user@shop.example.com')).toBeNull();
  });
});
