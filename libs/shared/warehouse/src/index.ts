/** The warehouse: master data, inbound, outbound, inventory, documents, sandbox simulations, the integration API's bulk engine and bulk jobs. */
export * from './bulk-jobs/index.js';
export * from './documents/index.js';
export * from './imports/index.js';
export * from './inbound/index.js';
export * from './ingest-entities.js';
export * from './integration/index.js';
export * from './inventory/index.js';
export * from './master-data/index.js';
export * from './numbering/index.js';
export * from './outbound/index.js';
export * from './sandbox/index.js';
export * from './warehouses/index.js';
