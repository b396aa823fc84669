export { TenantsService, type Tenant } from './tenants.service.js';
export type { TenantAttributes } from './tenant.model.js';
