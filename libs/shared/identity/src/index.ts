/** People: authentication, users, tenants, module permissions and the audit log. */
export * from './access/index.js';
export * from './audit/index.js';
export * from './auth/index.js';
export * from './tenants/index.js';
export * from './users/index.js';
export { identityMigrations } from './migrations/index.js';
