export * from './inbound/index.js';
