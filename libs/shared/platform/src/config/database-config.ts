import Joi from 'joi';
import { ConfigError, type Config } from './config.js';
import { configVariables } from './config.schema.js';

const names = ['DATABASE_URL', 'BCRYPT_ROUNDS', 'LOG_LEVEL'] as const;
const schema = Joi.object(Object.fromEntries(names.map((name) => [name, configVariables[name].schema]))).unknown(true);

export type DatabaseConfig = Pick<Config, 'databaseUrl' | 'databasePoolMax' | 'bcryptRounds' | 'logLevel'>;

/**
 * The settings of a command that needs the database alone (the operator's `npm run wms`), validated by the
 * same schema as the service's: it runs where JWT_SECRET, Redis and the rest may be unknown.
 */
export function loadDatabaseConfig(env: NodeJS.ProcessEnv = process.env): DatabaseConfig {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const { value, error } = schema.validate(present, { abortEarly: true, convert: true });
  if (error) {
    const detail = error.details[0];
    throw new ConfigError(
      `Invalid configuration: ${String(detail?.path[0])} ${(detail?.message ?? error.message).replace(/^"[^"]+" /, '')}`,
    );
  }
  return {
    databaseUrl: value.DATABASE_URL,
    databasePoolMax: 2,
    bcryptRounds: value.BCRYPT_ROUNDS,
    logLevel: value.LOG_LEVEL,
  };
}
