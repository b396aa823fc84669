import { ConfigError, loadConfig } from '@wms/shared';

// loadConfig is a pure function of the environment it is given: no database or Redis involved.
const valid = { JWT_SECRET: 'a-secret-of-sixteen+' };

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
      jwt: { secret: valid.JWT_SECRET, accessTtlSeconds: 900, refreshTtlSeconds: 604800 },
      bcryptRounds: 12,
      loginMaxFailedAttempts: 5,
      allowRegistration: false,
      trustProxy: 'loopback',
    });
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ ...valid, PORT: '' }).port).toBe(3000);
  });

  it.each([
    [{}, 'Invalid configuration: JWT_SECRET is required'],
    [{ JWT_SECRET: 'short' }, 'Invalid configuration: JWT_SECRET length must be at least 16 characters long'],
    [{ ...valid, PORT: 'eighty' }, 'Invalid configuration: PORT must be a number'],
    [{ ...valid, JWT_ACCESS_TTL: '0' }, 'Invalid configuration: JWT_ACCESS_TTL must be greater than or equal to 1'],
    [{ ...valid, LOGIN_MAX_FAILED_ATTEMPTS: '2.5' }, 'Invalid configuration: LOGIN_MAX_FAILED_ATTEMPTS must be an integer'],
    [{ ...valid, AUTH_ALLOW_REGISTRATION: 'yes please' }, 'Invalid configuration: AUTH_ALLOW_REGISTRATION must be a boolean'],
    [{ ...valid, DATABASE_URL: 'mysql://db/wms' }, 'Invalid configuration: DATABASE_URL must be a valid uri with a scheme matching the postgres|postgresql pattern'],
  ])('refuses %j with one line: %s', (env, message) => {
    expect(messageFor(env)).toBe(message);
  });

  it('refuses the default seed admin password in production', () => {
    expect(messageFor({ ...valid, NODE_ENV: 'production' })).toMatch(/^Invalid configuration: SEED_ADMIN_PASSWORD /);
  });
});
