/** The warehouse: master data and its catalogue reads, inbound, outbound, inventory and its ledger, returns, documents, numbering, sandbox simulations, and the write kernel their writes share. */
export * from './catalogue/index.js';
export * from './documents/index.js';
export * from './inbound/index.js';
export * from './inventory/index.js';
export * from './ledger/index.js';
export * from './master-data/index.js';
export * from './numbering/index.js';
export * from './outbound/index.js';
export * from './returns/index.js';
export * from './sandbox/index.js';
export * from './warehouses/index.js';
export * from './writes/index.js';
export { warehouseMigrations } from './migrations/index.js';
