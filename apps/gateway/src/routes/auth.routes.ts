import { Router, type Request, type Response } from 'express';
import { AppError, loginSchema, refreshSchema, validate, type Services } from '@wms/shared';
import { requireJwt } from '../http/jwt-guard.js';
import { readCookie } from '../http/cookies.js';

/**
 * A browser session (the admin portal) asks for `refreshCookie: true`: its refresh token then travels only
 * in an httpOnly, SameSite=Strict cookie scoped to the auth endpoints, so no script on the page can read it,
 * and the answer's body carries the access token alone. API clients keep the token in the body as before.
 */
export const REFRESH_COOKIE = 'wms_refresh';
const REFRESH_COOKIE_PATH = '/api/v1/auth';

export function authRoutes(services: Services, options: { secureCookies: boolean; refreshTtlSeconds: number }): Router {
  const router = Router();
  const jwt = requireJwt(services.auth.tokens);
  const cookieOptions = (req: Request) => ({
    httpOnly: true,
    sameSite: 'strict' as const,
    path: REFRESH_COOKIE_PATH,
    secure: options.secureCookies || req.secure,
  });
  const setRefreshCookie = (req: Request, res: Response, refreshToken: string) =>
    res.cookie(REFRESH_COOKIE, refreshToken, { ...cookieOptions(req), maxAge: options.refreshTtlSeconds * 1000 });

  router.post('/login', async (req, res) => {
    const { email, password, refreshCookie } = validate(loginSchema, req.body);
    const { refreshToken, ...result } = await services.auth.login(email, password);
    if (!refreshCookie) return void res.json({ ...result, refreshToken, requestId: req.requestId });
    setRefreshCookie(req, res, refreshToken);
    res.json({ ...result, requestId: req.requestId });
  });

  /** The token in the body wins; without one, the browser session's cookie is read and renewed. */
  router.post('/refresh', async (req, res) => {
    const { refreshToken } = validate(refreshSchema, req.body ?? {});
    if (refreshToken) {
      const tokens = await services.auth.refresh(refreshToken);
      return void res.json({ ...tokens, requestId: req.requestId });
    }
    const cookie = readCookie(req, REFRESH_COOKIE);
    if (!cookie)
      throw AppError.validation('Request validation failed', [
        { path: 'refreshToken', message: '"refreshToken" is required' },
      ]);
    try {
      const { refreshToken: renewed, ...tokens } = await services.auth.refresh(cookie);
      setRefreshCookie(req, res, renewed);
      res.json({ ...tokens, requestId: req.requestId });
    } catch (error) {
      // A session that can no longer be renewed is over: the browser forgets its cookie.
      res.clearCookie(REFRESH_COOKIE, cookieOptions(req));
      throw error;
    }
  });

  /** Ends a browser session: its refresh cookie is cleared. Needs no token (an expired session may sign out). */
  router.post('/logout', (req, res) => {
    res.clearCookie(REFRESH_COOKIE, cookieOptions(req));
    res.status(204).end();
  });

  router.post('/register', async (req, res) => {
    const result = await services.auth.register(req.body);
    res.status(201).json({ ...result, requestId: req.requestId });
  });

  router.get('/me', jwt, async (req, res) => {
    res.json(await services.auth.me(req.principal!));
  });

  router.post('/change-password', jwt, async (req, res) => {
    const result = await services.auth.changePassword(req.principal!, req.body);
    res.json({ ...result, requestId: req.requestId });
  });

  return router;
}
