import { api } from './client';
import type { Overview, Tenant } from './types';

export const overviewApi = {
  get: () => api.get<Overview>('/overview'),
};

export const tenantsApi = {
  list: () => api.get<Tenant[]>('/tenants'),
};
