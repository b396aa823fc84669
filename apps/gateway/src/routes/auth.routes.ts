import { Router } from 'express';
import Joi from 'joi';
import { validate, type Services } from '@wms/shared';
import { requireJwt } from '../http/jwt-guard.js';

const loginSchema = Joi.object({ email: Joi.string().required(), password: Joi.string().required() });
const refreshSchema = Joi.object({ refreshToken: Joi.string().required() });

export function authRoutes(services: Services): Router {
  const router = Router();
  const jwt = requireJwt(services.auth.tokens);

  router.post('/login', async (req, res) => {
    const { email, password } = validate(loginSchema, req.body);
    const result = await services.auth.login(email, password);
    res.json({ ...result, requestId: req.requestId });
  });

  router.post('/refresh', async (req, res) => {
    const { refreshToken } = validate(refreshSchema, req.body);
    const tokens = await services.auth.refresh(refreshToken);
    res.json({ ...tokens, requestId: req.requestId });
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
