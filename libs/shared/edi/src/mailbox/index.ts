export * from './mailbox.repository.js';
