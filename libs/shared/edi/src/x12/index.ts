export * from './envelope-writer.js';
export * from './segment.js';
