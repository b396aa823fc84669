export * from './partners.repository.js';
export * from './trading-partner.js';
