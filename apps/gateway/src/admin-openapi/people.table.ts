import { changePasswordSchema, loginSchema, refreshSchema, registerSchema } from '@wms/identity';
import { GUARDED, INVALID, error, ok, type AdminRoute } from './admin-route.js';

/** Sign-in and the session (the other admin routes of people are declared in routes/). */
export const PEOPLE_ROUTES: AdminRoute[] = [
  {
    method: 'post',
    path: '/auth/login',
    tag: 'auth',
    access: 'public',
    summary: 'Sign in with e-mail and password',
    description:
      'A browser session asks for refreshCookie: true: the refresh token is then set as an httpOnly cookie ' +
      'scoped to /api/v1/auth and left out of the body. Failed sign-ins are throttled per e-mail and address.',
    body: loginSchema,
    bodyName: 'Login',
    responses: {
      200: ok('signed in', 'Session'),
      ...INVALID,
      401: error('wrong e-mail or password, or the account is inactive or locked'),
      429: error('too many failed sign-ins; Retry-After says when to try again'),
    },
  },
  {
    method: 'post',
    path: '/auth/refresh',
    tag: 'auth',
    access: 'public',
    summary: 'A new access token for a refresh token (in the body, or else the session cookie)',
    body: refreshSchema,
    bodyName: 'Refresh',
    bodyRequired: false,
    responses: {
      200: ok('renewed; a cookie session gets its cookie renewed too', 'RenewedSession'),
      ...INVALID,
      401: error('the refresh token is invalid, expired or voided by a password change'),
    },
  },
  {
    method: 'post',
    path: '/auth/logout',
    tag: 'auth',
    access: 'public',
    summary: "End a session: the refresh token's family (the body's token, else the cookie's) is revoked",
    description:
      'The cookie is cleared. Always 204, with or without a token (an expired session may sign out; signing ' +
      'out twice is no error), so the answer tells nothing about the token.',
    body: refreshSchema,
    bodyName: 'Refresh',
    bodyRequired: false,
    responses: { 204: { description: 'signed out' }, ...INVALID },
  },
  {
    method: 'post',
    path: '/auth/register',
    tag: 'auth',
    access: 'public',
    summary: 'Self-registration: a viewer of the default tenant, signed in at once',
    body: registerSchema,
    bodyName: 'Register',
    responses: {
      201: ok('registered and signed in', 'Session'),
      ...INVALID,
      409: error('the e-mail is taken'),
    },
  },
  {
    method: 'get',
    path: '/auth/me',
    tag: 'auth',
    access: 'signed-in',
    summary: 'The signed-in user',
    responses: { 200: ok('the user', 'User'), 401: GUARDED[401]! },
  },
  {
    method: 'post',
    path: '/auth/change-password',
    tag: 'auth',
    access: 'signed-in',
    summary: "Change the signed-in user's password; earlier refresh tokens stop working",
    body: changePasswordSchema,
    bodyName: 'ChangePassword',
    responses: {
      200: ok('changed; a new session', 'Session'),
      ...INVALID,
      401: error('no valid access token, or the current password is wrong'),
    },
  },
  {
    method: 'post',
    path: '/auth/queue-console-session',
    tag: 'auth',
    access: 'admin',
    summary: 'Open the queue console: a short session cookie scoped to /admin/queues',
    responses: { 200: ok('the console is open at url', 'QueueConsoleSession'), ...GUARDED },
  },
  {
    method: 'delete',
    path: '/auth/queue-console-session',
    tag: 'auth',
    access: 'public',
    summary: 'Close the queue console: its cookie is cleared',
    responses: { 204: { description: 'closed' } },
  },
];
