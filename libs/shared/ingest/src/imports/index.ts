export * from './import-format.js';
export * from './import-paths.js';
export * from './imports.contract.js';
export * from './imports.repository.js';
export * from './imports.service.js';
export * from './import-runner.js';
export * from './import-dispatcher.js';
export { TenantUploadLeases, UPLOAD_LEASE_MS } from './tenant-upload-leases.js';
