import { api, apiAll } from './client';
import type { components, paths } from './schema';
import type { UserRecord } from './types';

export type UserStatus = UserRecord['status'];
/** The list's filters; its pages are read to the end (apiAll). */
export type UserFilter = Omit<NonNullable<paths['/users']['get']['parameters']['query']>, 'limit' | 'cursor'>;
export type NewUserInput = components['schemas']['CreateUser'];
/** `email` and `password` of another user: admins only (the user's `canSetCredentials`). */
export type UserPatch = components['schemas']['UpdateUser'];

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
