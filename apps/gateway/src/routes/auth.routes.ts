import { type Router, type Request, type Response } from 'express';
import { changePasswordSchema, loginSchema, refreshSchema, registerSchema, type TokenService } from '@wms/identity';
import { AppError, validate } from '@wms/platform';
import type { Services } from '../services.js';
import { readCookie, requestIdOf } from '../http/index.js';
import { GUARDED, INVALID, adminRouter, error, ok, type AdminEndpoint, type PublicEndpoint } from './admin-route.js';

/**
 * A browser session (the admin portal) asks for `refreshCookie: true`: its refresh token then travels only
 * in an httpOnly, SameSite=Strict cookie scoped to the auth endpoints, so no script on the page can read it,
 * and the answer's body carries the access token alone. API clients keep the token in the body as before.
 */
export const REFRESH_COOKIE = 'wms_refresh';
const REFRESH_COOKIE_PATH = '/api/v1/auth';
/**
 * Says only that a browser session may exist (value `1`, no secret), readable by the portal's pages: without
 * it the portal does not try a refresh on its first load, so a visitor with no session sees no failed call.
 */
export const SESSION_HINT_COOKIE = 'wms_session';
const SESSION_HINT_PATH = '/admin';

export interface AuthOptions {
  secureCookies: boolean;
  refreshTtlSeconds: number;
}

interface Deps {
  services: Pick<Services, 'auth'>;
  options: AuthOptions;
}

/** The browser session's cookies: the refresh token's and the hint beside it. */
class SessionCookies {
  constructor(private readonly options: AuthOptions) {}

  set(req: Request, res: Response, refreshToken: string): void {
    const maxAge = this.options.refreshTtlSeconds * 1000;
    res.cookie(REFRESH_COOKIE, refreshToken, { ...this.refreshOptions(req), maxAge });
    res.cookie(SESSION_HINT_COOKIE, '1', { ...this.hintOptions(req), maxAge });
  }

  clear(req: Request, res: Response): void {
    res.clearCookie(REFRESH_COOKIE, this.refreshOptions(req));
    res.clearCookie(SESSION_HINT_COOKIE, this.hintOptions(req));
  }

  private refreshOptions(req: Request) {
    return {
      httpOnly: true,
      sameSite: 'strict' as const,
      path: REFRESH_COOKIE_PATH,
      secure: this.options.secureCookies || req.secure,
    };
  }

  private hintOptions(req: Request) {
    return { ...this.refreshOptions(req), httpOnly: false, path: SESSION_HINT_PATH };
  }
}

/** Sign-in, renewal, sign-out and self-registration: no one is signed in yet. */
const SESSION_ROUTES: ReadonlyArray<PublicEndpoint<Deps>> = [
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
    handle: ({ services, options }) => {
      const cookies = new SessionCookies(options);
      return async (req, res) => {
        const { email, password, refreshCookie } = validate(loginSchema, req.body);
        const { refreshToken, ...result } = await services.auth.login(email, password);
        if (!refreshCookie) return void res.json({ ...result, refreshToken, requestId: requestIdOf(req) });
        cookies.set(req, res, refreshToken);
        res.json({ ...result, requestId: requestIdOf(req) });
      };
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
    // The token in the body wins; without one, the browser session's cookie is read and renewed. Neither is a
    // 401: there is no session to renew.
    handle: ({ services, options }) => {
      const cookies = new SessionCookies(options);
      return async (req, res) => {
        const { refreshToken } = validate(refreshSchema, req.body ?? {});
        if (refreshToken) {
          const tokens = await services.auth.refresh(refreshToken);
          return void res.json({ ...tokens, requestId: requestIdOf(req) });
        }
        const cookie = readCookie(req, REFRESH_COOKIE);
        if (!cookie) {
          cookies.clear(req, res);
          throw AppError.unauthorized('No session: send refreshToken, or sign in again', 'NO_SESSION');
        }
        try {
          const { refreshToken: renewed, ...tokens } = await services.auth.refresh(cookie);
          cookies.set(req, res, renewed);
          res.json({ ...tokens, requestId: requestIdOf(req) });
        } catch (error) {
          // A session that can no longer be renewed is over: the browser forgets its cookie.
          cookies.clear(req, res);
          throw error;
        }
      };
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
    handle: ({ services, options }) => {
      const cookies = new SessionCookies(options);
      return async (req, res) => {
        const { refreshToken } = validate(refreshSchema, req.body ?? {});
        await services.auth.logout(refreshToken ?? readCookie(req, REFRESH_COOKIE));
        cookies.clear(req, res);
        res.status(204).end();
      };
    },
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
    handle:
      ({ services }) =>
      async (req, res) => {
        const result = await services.auth.register(req.body);
        res.status(201).json({ ...result, requestId: requestIdOf(req) });
      },
  },
];

/** The signed-in user and its password. */
const SIGNED_IN_ROUTES: ReadonlyArray<AdminEndpoint<Deps>> = [
  {
    method: 'get',
    path: '/auth/me',
    tag: 'auth',
    access: 'signed-in',
    summary: 'The signed-in user',
    responses: { 200: ok('the user', 'User'), 401: GUARDED[401]! },
    handle:
      ({ services }) =>
      async (req, res) => {
        res.json(await services.auth.me(req.principal));
      },
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
    handle:
      ({ services }) =>
      async (req, res) => {
        const result = await services.auth.changePassword(req.principal, req.body);
        res.json({ ...result, requestId: requestIdOf(req) });
      },
  },
];

/** The auth routes, declared once: the router below and the admin document are made from them. */
export const AUTH_ROUTES: ReadonlyArray<AdminEndpoint<Deps> | PublicEndpoint<Deps>> = [
  ...SESSION_ROUTES,
  ...SIGNED_IN_ROUTES,
];

/** The auth routes' router, made from their declarations (mounted on the admin base path itself). */
export function authRoutes(services: Pick<Services, 'auth'>, tokens: TokenService, options: AuthOptions): Router {
  return adminRouter(AUTH_ROUTES, { services, options }, tokens);
}
