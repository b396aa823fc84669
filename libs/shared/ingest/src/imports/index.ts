export * from './import-format.js';
export * from './import-paths.js';
export * from './imports.contract.js';
export * from './imports.repository.js';
export * from './import-turns.repository.js';
export * from './imports.service.js';
export * from './import-runner.js';
export * from './import-chunk-dispatcher.js';
