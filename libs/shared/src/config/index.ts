export { loadConfig, loadConfigOrExit, ConfigError, type Config } from './config.js';
export { configVariables, type ConfigVariableName } from './config.schema.js';
export { configTableMarkdown } from './config-table.js';
