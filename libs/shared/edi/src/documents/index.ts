export * from './document.js';
export * from './documents.repository.js';
export * from './documents.service.js';
export * from './segments.js';
