export { TenantsService, DEFAULT_TENANT_CODE, type Tenant } from './tenants.service.js';
export type { TenantAttributes } from './tenant.model.js';
export { createTenantSchema, type TenantInput } from './tenant.schema.js';
export { TenantsRepository } from './tenants.repository.js';
