import { api } from './client';
import type { components } from './schema';
import type { Overview, Tenant } from './types';

export type NewTenantInput = components['schemas']['CreateTenant'];

export const overviewApi = {
  get: () => api.get<Overview>('/overview'),
};

export const tenantsApi = {
  list: () => api.get<Tenant[]>('/tenants'),
  create: (input: NewTenantInput) => api.post<Tenant>('/tenants', input),
};
