export * from './contracts.js';
export * from './inbound/index.js';
export * from './interchanges/index.js';
export * from './mailbox/index.js';
export * from './migrations/index.js';
export * from './partners/index.js';
export * from './sets/index.js';
export * from './x12/index.js';
