import { http, ok } from './client';

export const overviewApi = {
  get: () => ok(http.GET('/overview')),
};

export const tenantsApi = {
  list: () => ok(http.GET('/tenants')),
};
