export * from './acknowledgments.js';
export * from './envelope-writer.js';
export * from './reader.js';
export * from './segment.js';
