import { api, apiAll } from './client';
import type { AdminModule, Role, UserRecord } from './types';

export type UserStatus = UserRecord['status'];

export interface UserFilter {
  q?: string;
  role?: Role;
  status?: UserStatus;
}

export interface NewUserInput {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
  role: Role;
  tenantId?: string | null;
  adminModules: AdminModule[];
  adminModulesWrite: AdminModule[];
}

/** `email` and `password` of another user: admins only (the user's `canSetCredentials`). */
export type UserPatch = Partial<NewUserInput>;

const base = '/users';
const one = (id: string) => `${base}/${encodeURIComponent(id)}`;

export const usersApi = {
  list: (filter: UserFilter = {}) => apiAll<UserRecord>(base, { ...filter }),
  get: (id: string) => api.get<UserRecord>(one(id)),
  create: (input: NewUserInput) => api.post<UserRecord>(base, input),
  update: (id: string, patch: UserPatch) => api.patch<UserRecord>(one(id), patch),
  disable: (id: string) => api.post<UserRecord>(`${one(id)}/disable`),
  enable: (id: string) => api.post<UserRecord>(`${one(id)}/enable`),
  unlock: (id: string) => api.post<UserRecord>(`${one(id)}/unlock`),
};
