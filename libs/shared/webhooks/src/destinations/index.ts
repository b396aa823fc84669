export * from './address-template.js';
export * from './destination.js';
export * from './broker-publisher.js';
