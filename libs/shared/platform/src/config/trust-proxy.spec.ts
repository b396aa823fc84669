import { loadConfig } from './config.js';
import { trustsAnyClient } from './trust-proxy.js';

const production = {
  JWT_SECRET: 'q3Vt0Zr8X9mPj2LwHc4Ns7Yb1Kd6Fg5Te0Ua8Ri3Oe7Wl2Mz9Qx4Cv6Bn1Hy5Jk8Gp',
  NODE_ENV: 'production',
  SEED_ADMIN_PASSWORD: 'a-strong-admin-password',
  SECRETS_ENCRYPTION_KEYS: `k1:${Buffer.alloc(32, 1).toString('base64')}`,
  METRICS_TOKEN: 'a-metrics-token-of-16',
};

describe('TRUST_PROXY in production', () => {
  it.each([
    ['0.0.0.0/1,128.0.0.0/1', 'every IPv4 address'],
    ['::ffff:0:0/96', 'every IPv4 address'],
    ['::ffff:0.0.0.0/97, ::ffff:128.0.0.0/97', 'every IPv4 address'],
    ['0.0.0.0/1, ::ffff:128.0.0.0/97', 'every IPv4 address'],
    ['::/1', 'every IPv4 address'],
    ['0.0.0.0/0.0.0.0', 'every IPv4 address'],
    ['::/0', 'every IPv6 address'],
    ['8000::/1, ::/2, 4000::/2', 'every IPv6 address'],
    ['loopback, 0.0.0.0/2, 64.0.0.0/2, 128.0.0.0/2, 192.0.0.0/2', 'every IPv4 address'],
    ['true', 'every address'],
    ['11', '11 hops'],
    ['50', '50 hops'],
  ])('refuses %s: it trusts %s', (trustProxy, what) => {
    expect(trustsAnyClient(trustProxy)).toContain(what);
    expect(() => loadConfig({ ...production, TRUST_PROXY: trustProxy })).toThrow(
      /^Invalid configuration: TRUST_PROXY must not trust every address when NODE_ENV=production/,
    );
  });

  it.each([
    'loopback',
    '10.0.0.0/8',
    '2',
    '10',
    '0',
    'false',
    'loopback, linklocal, uniquelocal',
    '10.0.0.0/8, 192.0.2.7, 2001:db8::/32',
    '0.0.0.0/1',
    '::ffff:0:0/97',
    '2001:db8::/32, 8000::/1, fe80::/10',
    '10.0.0.0/255.0.0.0',
  ])('accepts %s', (trustProxy) => {
    expect(trustsAnyClient(trustProxy)).toBeNull();
    expect(loadConfig({ ...production, TRUST_PROXY: trustProxy }).trustProxy).toBe(trustProxy);
  });
});
