export * from './edi-dispatcher.js';
export * from './edi-inbox.js';
export * from './edi.contract.js';
export * from './edi.metrics.js';
export * from './envelope-check.js';
export * from './functional-acknowledgment.js';
export * from './inbound-engine.js';
export * from './inbound.repository.js';
