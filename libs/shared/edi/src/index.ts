export * from './contracts.js';
export * from './documents/index.js';
export * from './interchanges/index.js';
export * from './mailbox/mailbox.repository.js';
export * from './migrations/index.js';
export * from './partners/index.js';
export * from './sftp/index.js';
export * from './x12/index.js';
