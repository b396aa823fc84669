export * from './interchange.js';
export * from './interchanges.repository.js';
