export {
  loadConfig,
  loadConfigOrExit,
  ConfigError,
  type Config,
  type DatabaseBounds,
  type RedisNode,
  type RedisShape,
} from './config.js';
export { configVariables, type ConfigVariableName } from './config.schema.js';
export { configTableMarkdown } from './config-table.js';
export { loadDatabaseConfig, type DatabaseConfig } from './database-config.js';
