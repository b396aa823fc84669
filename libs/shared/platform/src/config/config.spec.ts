import { ConfigError, loadConfig } from './config.js';

// loadConfig is a pure function of the environment it is given: no database or Redis involved.
const valid = { JWT_SECRET: 'a-secret-of-sixteen+' };
/** 48 random bytes in base64, as `openssl rand -base64 48` prints them. */
const RANDOM_SECRET = 'q3Vt0Zr8X9mPj2LwHc4Ns7Yb1Kd6Fg5Te0Ua8Ri3Oe7Wl2Mz9Qx4Cv6Bn1Hy5Jk8Gp';

function messageFor(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error('loadConfig accepted the environment');
}

describe('loadConfig', () => {
  it('applies the documented defaults when only JWT_SECRET is set', () => {
    const config = loadConfig(valid);

    expect(config).toMatchObject({
      port: 3000,
      jwt: { secret: valid.JWT_SECRET, previousSecret: null, accessTtlSeconds: 900, refreshTtlSeconds: 604800 },
      secretsEncryptionKeys: null,
      bcryptRounds: 12,
      loginMaxFailedAttempts: 5,
      allowRegistration: false,
      trustProxy: 'loopback',
    });
  });

  it('MIGRATE_ON_START: an app migrates at start unless told false; another value is refused', () => {
    expect(loadConfig(valid).migrateOnStart).toBe(true);
    expect(loadConfig({ ...valid, MIGRATE_ON_START: 'false' }).migrateOnStart).toBe(false);
    expect(messageFor({ ...valid, MIGRATE_ON_START: 'later' })).toBe(
      'Invalid configuration: MIGRATE_ON_START must be a boolean',
    );
  });

  it('talks to one Redis node by REDIS_URL unless a sentinel or cluster setting is given', () => {
    expect(loadConfig(valid).redis).toEqual({ kind: 'single', url: 'redis://127.0.0.1:6379' });
    expect(
      loadConfig({ ...valid, REDIS_SENTINELS: 'a:26379,10.0.0.2:26380,[::1]:26381', REDIS_SENTINEL_NAME: 'wms' }).redis,
    ).toEqual({
      kind: 'sentinel',
      name: 'wms',
      sentinels: [
        { host: 'a', port: 26379 },
        { host: '10.0.0.2', port: 26380 },
        { host: '::1', port: 26381 },
      ],
    });
    expect(loadConfig({ ...valid, REDIS_CLUSTER_NODES: 'r1:7000,r2:7001' }).redis).toEqual({
      kind: 'cluster',
      nodes: [
        { host: 'r1', port: 7000 },
        { host: 'r2', port: 7001 },
      ],
    });
  });

  it.each([
    [{ REDIS_SENTINELS: 'a:26379' }, 'Invalid configuration: REDIS_SENTINEL_NAME is required with REDIS_SENTINELS'],
    [{ REDIS_SENTINEL_NAME: 'wms' }, 'Invalid configuration: REDIS_SENTINEL_NAME needs REDIS_SENTINELS'],
    [
      { REDIS_SENTINELS: 'a:1', REDIS_SENTINEL_NAME: 'wms', REDIS_CLUSTER_NODES: 'b:2' },
      'Invalid configuration: set REDIS_SENTINELS or REDIS_CLUSTER_NODES, not both',
    ],
    [{ REDIS_CLUSTER_NODES: 'r1:7000;r2' }, 'Invalid configuration: REDIS_CLUSTER_NODES with value'],
  ])('refuses an inconsistent Redis shape %j', (env, message) => {
    expect(messageFor({ ...valid, ...env })).toContain(message);
  });

  it('reads every statement on the primary unless DATABASE_READ_URLS names replicas; a replica URL never shows in an error', () => {
    expect(loadConfig(valid).readReplicas).toEqual({ urls: [], maxWaitMs: 50, maxLagSeconds: 10 });
    expect(
      loadConfig({
        ...valid,
        DATABASE_READ_URLS: 'postgres://reader:pw@replica-1:5432/wms,postgresql://replica-2/wms',
        READ_REPLICA_MAX_WAIT_MS: '0',
        READ_REPLICA_MAX_LAG_SECONDS: '30',
      }).readReplicas,
    ).toEqual({
      urls: ['postgres://reader:pw@replica-1:5432/wms', 'postgresql://replica-2/wms'],
      maxWaitMs: 0,
      maxLagSeconds: 30,
    });
    expect(messageFor({ ...valid, DATABASE_READ_URLS: 'mysql://replica/wms' })).toMatch(
      /^Invalid configuration: DATABASE_READ_URLS/,
    );
    const noDatabase = messageFor({ ...valid, DATABASE_READ_URLS: 'postgres://reader:secret-pw@replica-1:5432' });
    expect(noDatabase).toBe('Invalid configuration: DATABASE_READ_URLS holds a URL that names no database');
    expect(messageFor({ ...valid, READ_REPLICA_MAX_LAG_SECONDS: '0' })).toMatch(
      /^Invalid configuration: READ_REPLICA_MAX_LAG_SECONDS/,
    );
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ ...valid, PORT: '' }).port).toBe(3000);
  });

  it.each([
    [{}, 'Invalid configuration: JWT_SECRET is required'],
    [{ JWT_SECRET: 'short' }, 'Invalid configuration: JWT_SECRET length must be at least 16 characters long'],
    [{ ...valid, PORT: 'eighty' }, 'Invalid configuration: PORT must be a number'],
    [{ ...valid, JWT_ACCESS_TTL: '0' }, 'Invalid configuration: JWT_ACCESS_TTL must be greater than or equal to 1'],
    [
      { ...valid, LOGIN_MAX_FAILED_ATTEMPTS: '2.5' },
      'Invalid configuration: LOGIN_MAX_FAILED_ATTEMPTS must be an integer',
    ],
    [
      { ...valid, AUTH_ALLOW_REGISTRATION: 'yes please' },
      'Invalid configuration: AUTH_ALLOW_REGISTRATION must be a boolean',
    ],
    [
      { ...valid, DATABASE_URL: 'mysql://db/wms' },
      'Invalid configuration: DATABASE_URL must be a valid uri with a scheme matching the postgres|postgresql pattern',
    ],
  ])('refuses %j with one line: %s', (env, message) => {
    expect(messageFor(env)).toBe(message);
  });

  it('reads the secrets key ring in order, the first key sealing, and refuses a malformed ring or a repeated id', () => {
    const a = Buffer.alloc(32, 1).toString('base64');
    const b = Buffer.alloc(32, 2).toString('base64');

    const ring = loadConfig({ ...valid, SECRETS_ENCRYPTION_KEYS: `k2:${b},k1:${a}` }).secretsEncryptionKeys;

    expect(ring).toEqual([
      { id: 'k2', key: Buffer.alloc(32, 2) },
      { id: 'k1', key: Buffer.alloc(32, 1) },
    ]);
    expect(messageFor({ ...valid, SECRETS_ENCRYPTION_KEYS: `k1:${a},k1:${b}` })).toBe(
      'Invalid configuration: SECRETS_ENCRYPTION_KEYS repeats a key id',
    );
    expect(messageFor({ ...valid, SECRETS_ENCRYPTION_KEYS: 'k1:c2hvcnQ=' })).toMatch(
      /^Invalid configuration: SECRETS_ENCRYPTION_KEYS .*id:base64key/,
    );
  });

  it('refuses to start in production without SECRETS_ENCRYPTION_KEYS; JWT_SECRET_PREVIOUS is optional', () => {
    const production = {
      JWT_SECRET: RANDOM_SECRET,
      NODE_ENV: 'production',
      SEED_ADMIN_PASSWORD: 'a-real-password',
      METRICS_TOKEN: 'a-metrics-token-of-16',
    };

    expect(messageFor(production)).toMatch(/^Invalid configuration: SECRETS_ENCRYPTION_KEYS is required/);
    const config = loadConfig({
      ...production,
      SECRETS_ENCRYPTION_KEYS: `k1:${Buffer.alloc(32, 1).toString('base64')}`,
      JWT_SECRET_PREVIOUS: 'the-old-secret-of-sixteen',
    });
    expect(config.jwt.previousSecret).toBe('the-old-secret-of-sixteen');
  });

  it('refuses the default seed admin password in production', () => {
    expect(messageFor({ ...valid, NODE_ENV: 'production' })).toMatch(/^Invalid configuration: SEED_ADMIN_PASSWORD /);
  });

  it('in production, refuses to start without METRICS_TOKEN, and takes one of 16 characters or more', () => {
    const production = {
      JWT_SECRET: RANDOM_SECRET,
      NODE_ENV: 'production',
      SEED_ADMIN_PASSWORD: 'a-strong-admin-password',
      SECRETS_ENCRYPTION_KEYS: `k1:${Buffer.alloc(32, 1).toString('base64')}`,
    };
    expect(messageFor(production)).toBe('Invalid configuration: METRICS_TOKEN is required when NODE_ENV=production');
    expect(messageFor({ ...production, METRICS_TOKEN: 'short' })).toMatch(/^Invalid configuration: METRICS_TOKEN /);
    expect(loadConfig({ ...production, METRICS_TOKEN: 'sixteen-chars-ok' }).metricsToken).toBe('sixteen-chars-ok');
    expect(loadConfig(valid).metricsToken).toBeUndefined();
  });

  describe('what production refuses', () => {
    const production = {
      JWT_SECRET: RANDOM_SECRET,
      NODE_ENV: 'production',
      SEED_ADMIN_PASSWORD: 'a-strong-admin-password',
      SECRETS_ENCRYPTION_KEYS: `k1:${Buffer.alloc(32, 1).toString('base64')}`,
      METRICS_TOKEN: 'a-metrics-token-of-16',
    };

    it('starts with a random secret of 32 bytes or more and a trust-proxy hop count or proxy addresses', () => {
      expect(loadConfig(production).jwt.secret).toBe(RANDOM_SECRET);
      expect(loadConfig({ ...production, TRUST_PROXY: '1' }).trustProxy).toBe('1');
      expect(loadConfig({ ...production, TRUST_PROXY: '10.0.0.0/8, 192.0.2.7' }).trustProxy).toBe(
        '10.0.0.0/8, 192.0.2.7',
      );
      expect(
        loadConfig({ ...production, JWT_SECRET: 'f3a9c07b1e5d42a8b6c0d9e7f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4' })
          .nodeEnv,
      ).toBe('production');
    });

    it('refuses a JWT_SECRET shorter than 32 bytes, naming the setting', () => {
      expect(messageFor({ ...production, JWT_SECRET: 'Xk9#mQ2$vL7!pR4@' })).toBe(
        'Invalid configuration: JWT_SECRET must be at least 32 random bytes when NODE_ENV=production (e.g. openssl rand -base64 48)',
      );
    });

    it('refuses a JWT_SECRET of 32 bytes or more that is obviously not random', () => {
      for (const secret of ['a'.repeat(48), 'password'.repeat(5), 'change-me-change-me-change-me-change-me'])
        expect(messageFor({ ...production, JWT_SECRET: secret })).toMatch(
          /^Invalid configuration: JWT_SECRET does not look random \(fewer than 12 distinct characters\)/,
        );
    });

    it('refuses TRUST_PROXY=true, or a range covering every address, naming the setting', () => {
      for (const trustProxy of ['true', '0.0.0.0/0', 'loopback, ::/0', '11', '50'])
        expect(messageFor({ ...production, TRUST_PROXY: trustProxy })).toMatch(
          /^Invalid configuration: TRUST_PROXY must not trust every address when NODE_ENV=production .* hop count or the proxies’ addresses\/CIDRs$/,
        );
    });

    it('outside production, both still start (development and tests are not exposed)', () => {
      expect(loadConfig({ ...valid, TRUST_PROXY: 'true' }).trustProxy).toBe('true');
      expect(loadConfig({ JWT_SECRET: 'a'.repeat(16), NODE_ENV: 'test' }).jwt.secret).toBe('a'.repeat(16));
    });
  });

  it('LOGIN_LOCK_SECONDS: 0 (a lock lasts until an admin lifts it) unless set; negative values are refused', () => {
    expect(loadConfig(valid).loginLockSeconds).toBe(0);
    expect(loadConfig({ ...valid, LOGIN_LOCK_SECONDS: '900' }).loginLockSeconds).toBe(900);
    expect(messageFor({ ...valid, LOGIN_LOCK_SECONDS: '-1' })).toMatch(/^Invalid configuration: LOGIN_LOCK_SECONDS /);
  });

  it("API_DEFAULT_VERSION: the seed's 2026-11-21 unless set; an unknown version is refused, naming the known", () => {
    expect(loadConfig(valid).apiVersions).toEqual({ defaultVersion: '2026-11-21', deprecations: [] });
    expect(loadConfig({ ...valid, API_DEFAULT_VERSION: '2026-12-01' }).apiVersions.defaultVersion).toBe('2026-12-01');
    expect(messageFor({ ...valid, API_DEFAULT_VERSION: '2027-01-01' })).toBe(
      'Invalid configuration: API_DEFAULT_VERSION must be one of [2026-11-21, 2026-12-01]',
    );
  });

  it('API_DEPRECATED_VERSIONS: none unless set; a listed version has its days; the default may not be listed', () => {
    const deprecated = {
      ...valid,
      API_DEFAULT_VERSION: '2026-12-01',
      API_DEPRECATED_VERSIONS: '2026-11-21=2027-06-01/2029-06-01',
    };

    expect(loadConfig(deprecated).apiVersions.deprecations).toEqual([
      { version: '2026-11-21', deprecatedAt: '2027-06-01', sunsetAt: '2029-06-01' },
    ]);
    expect(messageFor({ ...deprecated, API_DEFAULT_VERSION: '2026-11-21' })).toMatch(
      /^Invalid configuration: API_DEFAULT_VERSION 2026-11-21 is deprecated/,
    );
    expect(messageFor({ ...valid, API_DEPRECATED_VERSIONS: '2026-11-21=2029-06-01' })).toBe(
      'Invalid configuration: API_DEPRECATED_VERSIONS holds "2026-11-21=2029-06-01", not version=YYYY-MM-DD/YYYY-MM-DD',
    );
  });
});
