#!/usr/bin/env node
// Operator commands behind `npm run wms -- <command>`; they need the database alone (DATABASE_URL, from the
// environment or .env), not a running service, an admin's token, Redis or JWT_SECRET.
//   users unlock <email>           locked → active, failure count reset (a disabled account stays disabled)
//   users reset-password <email>   prints a one-time random password once, unlocks, ends every session of the user
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const USAGE = 'Usage: npm run wms -- users unlock <email> | users reset-password <email>';

const [group, command, email, ...rest] = process.argv.slice(2);
if (group !== 'users' || !['unlock', 'reset-password'].includes(command) || !email || rest.length > 0) {
  console.error(USAGE);
  process.exit(2);
}

const envFile = join(root, '.env');
if (existsSync(envFile)) process.loadEnvFile(envFile);

const notBuilt = () => {
  console.error('The service is not built here: run `npm run build` first (a container image is built already).');
  process.exit(1);
};
const { loadDatabaseConfig, ConfigError, createSequelize, isAppError } = await import('@wms/platform').catch(notBuilt);
const { OperatorAccounts } = await import('@wms/identity').catch(notBuilt);

let config;
try {
  config = loadDatabaseConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exit(1);
}

const sequelize = createSequelize(config);
const accounts = new OperatorAccounts({ sequelize }, config.bcryptRounds);
let code = 0;
try {
  if (command === 'unlock') {
    const account = await accounts.unlock(email);
    console.log(`${account.email}: unlocked; status ${account.status}`);
  } else {
    const { account, password, endedSessions } = await accounts.resetPassword(email);
    console.log(`${account.email}: password reset; status ${account.status}; ${endedSessions} session(s) ended.`);
    console.log('One-time password (shown this once; the user should change it after signing in):');
    console.log(password);
  }
} catch (error) {
  // A refusal the operator can act on (no such user), or the database not answering; never a stack.
  console.error(isAppError(error) ? error.message : `The database did not answer: ${error?.message ?? error}`);
  code = 1;
} finally {
  await sequelize.close();
}
process.exit(code);
