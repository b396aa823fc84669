export * from './inbound/index.js';
export * from './outbound/index.js';
