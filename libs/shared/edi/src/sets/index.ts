export * from './outbound/index.js';
