export {
  api,
  apiRequest,
  apiPage,
  apiUpload,
  apiDownload,
  ApiError,
  API_BASE,
  useTokenSource,
  withQuery,
  type TokenSource,
  type Page,
} from './client';
export { signIn, renewSession, signOut } from './auth';
export { apiKeysApi } from './api-keys';
export { overviewApi, tenantsApi, type NewTenantInput } from './other';
export { webhooksApi } from './webhooks';
export type * from './webhooks';
export { usersApi } from './users';
export type * from './users';
export { auditApi } from './audit';
export type * from './audit';
export type * from './types';
export { roleValues } from './types';
