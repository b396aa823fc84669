export * from './address-template.js';
