export * from './adjustment-advice-947.js';
export * from './inventory-advice-846.js';
export * from './receipt-advice-944.js';
export * from './shipping-advice-945.js';
export * from './values.js';
