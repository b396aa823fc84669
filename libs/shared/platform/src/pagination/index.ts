export * from './list-query.js';
export * from './keyset-list.js';
