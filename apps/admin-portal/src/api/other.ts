import { http, ok } from './client';
import type { components } from './schema';

export type NewTenantInput = components['schemas']['CreateTenant'];

export const overviewApi = {
  get: () => ok(http.GET('/overview')),
};

export const tenantsApi = {
  list: () => ok(http.GET('/tenants')),
  create: (input: NewTenantInput) => ok(http.POST('/tenants', { body: input })),
};
