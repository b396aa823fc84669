import { MAX_PAGE, allPages, http, ok, okPage } from './client';
import type { components, paths } from './schema';
import type { UserRecord } from './types';

export type UserStatus = UserRecord['status'];
/** The list's filters; its pages are read to the end (allPages). */
export type UserFilter = Omit<NonNullable<paths['/users']['get']['parameters']['query']>, 'limit' | 'cursor'>;
export type NewUserInput = components['schemas']['CreateUser'];
/** `email` and `password` of another user: admins only (the user's `canSetCredentials`). */
export type UserPatch = components['schemas']['UpdateUser'];

const byId = (id: string) => ({ params: { path: { id } } });

export const usersApi = {
  list: (filter: UserFilter = {}): Promise<UserRecord[]> =>
    allPages((cursor) => okPage(http.GET('/users', { params: { query: { ...filter, limit: MAX_PAGE, cursor } } }))),
  get: (id: string) => ok(http.GET('/users/{id}', byId(id))),
  create: (input: NewUserInput) => ok(http.POST('/users', { body: input })),
  update: (id: string, patch: UserPatch) => ok(http.PATCH('/users/{id}', { ...byId(id), body: patch })),
  disable: (id: string) => ok(http.POST('/users/{id}/disable', byId(id))),
  enable: (id: string) => ok(http.POST('/users/{id}/enable', byId(id))),
  unlock: (id: string) => ok(http.POST('/users/{id}/unlock', byId(id))),
};
