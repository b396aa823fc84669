import { type Router, type Request, type Response } from 'express';
import { loginSchema, refreshSchema } from '@wms/identity';
import { AppError, validate } from '@wms/platform';
import type { Services } from '../services.js';
import { requireJwt } from '../http/jwt-guard.js';
import { personRoutes } from '../http/caller.js';
import { readCookie } from '../http/cookies.js';
import { caseSensitiveRouter } from '../http/router.js';

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

export function authRoutes(services: Services, options: { secureCookies: boolean; refreshTtlSeconds: number }): Router {
  const router = caseSensitiveRouter();
  const jwt = requireJwt(services.auth.tokens);
  const cookieOptions = (req: Request) => ({
    httpOnly: true,
    sameSite: 'strict' as const,
    path: REFRESH_COOKIE_PATH,
    secure: options.secureCookies || req.secure,
  });
  const hintOptions = (req: Request) => ({ ...cookieOptions(req), httpOnly: false, path: SESSION_HINT_PATH });
  const setRefreshCookie = (req: Request, res: Response, refreshToken: string) => {
    const maxAge = options.refreshTtlSeconds * 1000;
    res.cookie(REFRESH_COOKIE, refreshToken, { ...cookieOptions(req), maxAge });
    res.cookie(SESSION_HINT_COOKIE, '1', { ...hintOptions(req), maxAge });
  };
  const clearRefreshCookie = (req: Request, res: Response) => {
    res.clearCookie(REFRESH_COOKIE, cookieOptions(req));
    res.clearCookie(SESSION_HINT_COOKIE, hintOptions(req));
  };

  router.post('/login', async (req, res) => {
    const { email, password, refreshCookie } = validate(loginSchema, req.body);
    const { refreshToken, ...result } = await services.auth.login(email, password);
    if (!refreshCookie) return void res.json({ ...result, refreshToken, requestId: req.requestId });
    setRefreshCookie(req, res, refreshToken);
    res.json({ ...result, requestId: req.requestId });
  });

  /**
   * The token in the body wins; without one, the browser session's cookie is read and renewed. Neither is a
   * 401: there is no session to renew.
   */
  router.post('/refresh', async (req, res) => {
    const { refreshToken } = validate(refreshSchema, req.body ?? {});
    if (refreshToken) {
      const tokens = await services.auth.refresh(refreshToken);
      return void res.json({ ...tokens, requestId: req.requestId });
    }
    const cookie = readCookie(req, REFRESH_COOKIE);
    if (!cookie) {
      clearRefreshCookie(req, res);
      throw AppError.unauthorized('No session: send refreshToken, or sign in again', 'NO_SESSION');
    }
    try {
      const { refreshToken: renewed, ...tokens } = await services.auth.refresh(cookie);
      setRefreshCookie(req, res, renewed);
      res.json({ ...tokens, requestId: req.requestId });
    } catch (error) {
      // A session that can no longer be renewed is over: the browser forgets its cookie.
      clearRefreshCookie(req, res);
      throw error;
    }
  });

  /**
   * Ends a session: the family of the refresh token (the body's, else the cookie's) is revoked and the
   * cookie cleared. Always 204, with or without a token (an expired session may sign out; signing out twice
   * is no error), so the answer tells nothing about the token.
   */
  router.post('/logout', async (req, res) => {
    const { refreshToken } = validate(refreshSchema, req.body ?? {});
    await services.auth.logout(refreshToken ?? readCookie(req, REFRESH_COOKIE));
    clearRefreshCookie(req, res);
    res.status(204).end();
  });

  router.post('/register', async (req, res) => {
    const result = await services.auth.register(req.body);
    res.status(201).json({ ...result, requestId: req.requestId });
  });

  const signedIn = personRoutes(router, jwt);
  signedIn.get('/me', async (req, res) => {
    res.json(await services.auth.me(req.principal));
  });

  signedIn.post('/change-password', async (req, res) => {
    const result = await services.auth.changePassword(req.principal, req.body);
    res.json({ ...result, requestId: req.requestId });
  });

  return router;
}
