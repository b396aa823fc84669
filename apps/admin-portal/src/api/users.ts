import { api } from './client';
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

export type UserPatch = Partial<Omit<NewUserInput, 'email' | 'password'>>;

const base = '/users';
const one = (id: string) => `${base}/${encodeURIComponent(id)}`;

export const usersApi = {
  list: (filter: UserFilter = {}) => api.get<UserRecord[]>(base, { ...filter }),
  get: (id: string) => api.get<UserRecord>(one(id)),
  create: (input: NewUserInput) => api.post<UserRecord>(base, input),
  update: (id: string, patch: UserPatch) => api.patch<UserRecord>(one(id), patch),
  disable: (id: string) => api.post<UserRecord>(`${one(id)}/disable`),
  enable: (id: string) => api.post<UserRecord>(`${one(id)}/enable`),
  unlock: (id: string) => api.post<UserRecord>(`${one(id)}/unlock`),
};
