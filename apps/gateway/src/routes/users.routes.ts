import { type Router } from 'express';
import { createUserSchema, listUsersQuerySchema, updateUserSchema, type TokenService } from '@wms/identity';
import type { Services } from '../services.js';
import { setNextPage } from '../http/index.js';
import {
  GUARDED,
  INVALID,
  NEXT_PAGE_HEADERS,
  NOT_FOUND,
  adminRouter,
  error,
  listOf,
  moduleAccess,
  ok,
  type AdminEndpoint,
} from './admin-route.js';

type Endpoint = AdminEndpoint<Pick<Services, 'users'>>;

/** POST /users/:id/<action>: one change of a user's state. */
const userAction = (
  action: 'disable' | 'enable' | 'unlock',
  summary: string,
  handle: Endpoint['handle'],
): Endpoint => ({
  method: 'post',
  path: `/users/:id/${action}`,
  tag: 'users',
  access: moduleAccess('users', 'post'),
  summary,
  responses: { 200: ok('done', 'UserRecord'), ...GUARDED, ...NOT_FOUND },
  handle,
});

/**
 * Users admin (module `users`), each route declared once; the privilege and tenant rules live in
 * UsersService. The list is in e-mail order, a page at a time (`limit`, `cursor`; see next-page.ts).
 */
export const USER_ROUTES: readonly Endpoint[] = [
  {
    method: 'post',
    path: '/users',
    tag: 'users',
    access: moduleAccess('users', 'post'),
    summary: 'Create a user; nobody grants more than they hold, and a tenant-bound user only in its tenant',
    body: createUserSchema,
    bodyName: 'CreateUser',
    responses: {
      201: ok('created', 'UserRecord'),
      ...INVALID,
      ...GUARDED,
      409: error('the e-mail is taken'),
    },
    handle:
      ({ users }) =>
      async (req, res) => {
        res.status(201).json(await users.create(req.principal, req.body));
      },
  },
  {
    method: 'get',
    path: '/users',
    tag: 'users',
    access: moduleAccess('users', 'get'),
    summary: 'Users the reader may see, filtered by status, role and a part of e-mail or name',
    query: listUsersQuerySchema,
    responses: {
      200: { description: 'one page, by e-mail', body: listOf('UserRecord'), headers: NEXT_PAGE_HEADERS },
      ...INVALID,
      ...GUARDED,
    },
    handle:
      ({ users }) =>
      async (req, res) => {
        const page = await users.page(req.principal, req.query);
        setNextPage(req, res, page.nextCursor);
        res.json(page.data);
      },
  },
  {
    method: 'get',
    path: '/users/:id',
    tag: 'users',
    access: moduleAccess('users', 'get'),
    summary: 'One user',
    responses: { 200: ok('the user', 'UserRecord'), ...GUARDED, ...NOT_FOUND },
    handle:
      ({ users }) =>
      async (req, res) => {
        res.json(await users.get(req.principal, req.params.id!));
      },
  },
  {
    method: 'patch',
    path: '/users/:id',
    tag: 'users',
    access: moduleAccess('users', 'patch'),
    summary: 'Change a user (not their own role or permissions)',
    body: updateUserSchema,
    bodyName: 'UpdateUser',
    responses: { 200: ok('changed', 'UserRecord'), ...INVALID, ...GUARDED, ...NOT_FOUND },
    handle:
      ({ users }) =>
      async (req, res) => {
        res.json(await users.update(req.principal, req.params.id!, req.body));
      },
  },
  userAction('disable', 'Disable a user: it can no longer sign in', ({ users }) => async (req, res) => {
    res.json(await users.disable(req.principal, req.params.id!));
  }),
  userAction('enable', 'Enable a disabled user', ({ users }) => async (req, res) => {
    res.json(await users.enable(req.principal, req.params.id!));
  }),
  userAction('unlock', 'Unlock a user locked by failed sign-ins', ({ users }) => async (req, res) => {
    res.json(await users.unlock(req.principal, req.params.id!));
  }),
];

/** The users' router, made from their declarations (mounted on the admin base path itself). */
export function usersRoutes(services: Services, tokens: TokenService): Router {
  return adminRouter(USER_ROUTES, services, tokens);
}
