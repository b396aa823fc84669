export * from './list-query.js';
