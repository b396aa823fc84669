import { Router } from 'express';
import Joi from 'joi';
import { validate, type Services } from '@wms/shared';

const loginSchema = Joi.object({ email: Joi.string().required(), password: Joi.string().required() });
const refreshSchema = Joi.object({ refreshToken: Joi.string().required() });

export function authRoutes(services: Services): Router {
  const router = Router();

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

  return router;
}
